// Entries of the on-disk kernel build cache, and the checks that make the cache heal itself.
//
// An entry is an object file `<name>` plus a sidecar manifest `<name>.manifest` that records the object's
// size and 128-bit content hash ("size <bytes>\nfnv1a128 <32 hex digits>\n"). Every file is written to a
// unique temporary name and renamed into place, and the manifest only after its object, so a reader sees an
// entry as intact only when a whole object matching its manifest is there. A truncated or corrupted object,
// a missing manifest or one that does not match is "not intact": the caller rebuilds the entry instead of
// loading it (dlopen of a truncated object would end the process with SIGBUS).
//
// Verification cost: the first time a process sees an object (path, size, mtime, inode) it hashes the whole
// file; later checks of the same unchanged file cost one stat.
//
// Concurrent builders of one entry serialise on an advisory lock file `<name>.lock` (flock), so processes
// sharing a cold cache build each object once and the rest reuse it; readers of a warm cache take no lock
// and write nothing, so a read-only warm cache works.
#pragma once

#include <filesystem>
#include <string>

namespace runtime_mock::cache {

// 128-bit FNV-1a (two 64-bit lanes with different seeds): the cache's keys and content hashes.
class Hasher {
public:
    void add(const std::string& text);
    std::string hex() const;  // 32 hex digits

private:
    uint64_t a_ = 0xcbf29ce484222325ull;
    uint64_t b_ = 0x84222325cbf29ce4ull;
};

std::string read_file(const std::filesystem::path& path);

// The manifest text of `object` as it is now on disk.
std::string manifest_of(const std::filesystem::path& object);

// True when `object` and its manifest are both there and the object's size and content hash match it.
bool intact(const std::filesystem::path& object);

// Writes `text` to `path` through a temporary file `<path><unique>.tmp` and a rename.
void write_atomically(const std::filesystem::path& path, const std::string& text, const std::string& unique);

// Moves the finished object `built` to `object`, then writes its manifest: the entry becomes intact.
void publish(const std::filesystem::path& built, const std::filesystem::path& object, const std::string& unique);

// Creates `dir` if needed; throws KernelBuildError naming the directory and `variable` (the environment
// variable that chooses it) when it is a file or cannot be created.
void make_directory(const std::filesystem::path& dir, const std::string& variable);

// Holds the exclusive build lock of one entry from construction to destruction. Throws KernelBuildError
// naming the directory and `variable` when the lock file cannot be created (the directory is not writable).
class BuildLock {
public:
    BuildLock(const std::filesystem::path& object, const std::string& variable);
    ~BuildLock();
    BuildLock(const BuildLock&) = delete;
    BuildLock& operator=(const BuildLock&) = delete;

private:
    int fd_ = -1;
};

}  // namespace runtime_mock::cache
