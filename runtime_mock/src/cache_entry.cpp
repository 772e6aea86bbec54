#include "cache_entry.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "runtime_mock/device.hpp"

namespace runtime_mock::cache {

namespace fs = std::filesystem;

void Hasher::add(const std::string& text) {
    for (unsigned char c : text) {
        a_ = (a_ ^ c) * 0x100000001b3ull;
        b_ = (b_ ^ c) * 0x100000001b3ull;
    }
    a_ = (a_ ^ 0xff) * 0x100000001b3ull;
}

std::string Hasher::hex() const {
    char buffer[33];
    std::snprintf(buffer, sizeof(buffer), "%016llx%016llx", (unsigned long long)a_, (unsigned long long)b_);
    return buffer;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string manifest_of(const fs::path& object) {
    const std::string bytes = read_file(object);
    Hasher hasher;
    hasher.add(bytes);
    return "size " + std::to_string(bytes.size()) + "\nfnv1a128 " + hasher.hex() + "\n";
}

namespace {

fs::path manifest_path(const fs::path& object) {
    return object.string() + ".manifest";
}

// What identifies one version of a file without reading it.
using FileStamp = std::tuple<off_t, int64_t, ino_t, dev_t>;

bool stamp(const fs::path& path, FileStamp& out) {
    struct stat info{};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        return false;
    out = {info.st_size, int64_t(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec, info.st_ino, info.st_dev};
    return true;
}

std::string directory_error(const fs::path& dir, const std::string& problem, const std::string& variable) {
    return "kernel build cache directory '" + dir.string() + "' " + problem + "; set " + variable +
           " to a writable directory";
}

}  // namespace

bool intact(const fs::path& object) {
    static std::mutex mutex;
    static std::map<std::string, FileStamp> verified;  // objects whose content matched, as last seen
    FileStamp now;
    if (!stamp(object, now))
        return false;
    {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = verified.find(object.string());
        if (it != verified.end() && it->second == now)
            return true;
    }
    const std::string expected = read_file(manifest_path(object));
    if (expected.empty() || manifest_of(object) != expected)
        return false;
    FileStamp after;
    if (!stamp(object, after) || after != now)  // replaced while it was read: judge it again next time
        return false;
    std::lock_guard<std::mutex> lock(mutex);
    verified[object.string()] = now;
    return true;
}

void write_atomically(const fs::path& path, const std::string& text, const std::string& unique) {
    const fs::path tmp = path.string() + unique + ".tmp";
    bool written;
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        out.flush();
        written = bool(out);
    }
    std::error_code error;
    if (written)
        fs::rename(tmp, path, error);
    if (!written || error) {
        fs::remove(tmp, error);
        throw KernelBuildError("cannot write " + path.string() + " in the kernel build cache (disk full or not " +
                               "writable?)");
    }
}

void publish(const fs::path& built, const fs::path& object, const std::string& unique) {
    const std::string manifest = manifest_of(built);
    std::error_code error;
    fs::rename(built, object, error);
    if (error) {
        const std::string reason = error.message();
        fs::remove(built, error);
        throw KernelBuildError("cannot move the built kernel into the cache as " + object.string() + ": " + reason);
    }
    write_atomically(manifest_path(object), manifest, unique);
}

void make_directory(const fs::path& dir, const std::string& variable) {
    std::error_code error;
    if (fs::exists(dir, error) && !fs::is_directory(dir, error))
        throw KernelBuildError(directory_error(dir, "is a file, not a directory", variable));
    fs::create_directories(dir, error);
    if (error)
        throw KernelBuildError(directory_error(dir, "cannot be created (" + error.message() + ")", variable));
}

BuildLock::BuildLock(const fs::path& object, const std::string& variable) {
    const fs::path path = object.string() + ".lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        throw KernelBuildError(directory_error(
            object.parent_path(), "is not writable (" + std::string(std::strerror(errno)) + ")", variable));
    }
    // A filesystem without flock (ENOLCK) still gets correct results: every builder renames a whole object.
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
}

BuildLock::~BuildLock() {
    ::close(fd_);  // releases the lock
}

}  // namespace runtime_mock::cache
