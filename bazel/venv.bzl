"""Helpers of the repository rules that make virtualenvs from hash-pinned lock files (python_venv.bzl,
sdk_venv.bzl)."""

def run(rctx, argv, what, timeout = 600):
    """Runs argv in the repository; fails naming `what` with its output when it exits non-zero."""
    result = rctx.execute(argv, timeout = timeout, quiet = True)
    if result.return_code != 0:
        fail("%s: %s failed (exit %d)\ncommand: %s\nstdout:\n%s\nstderr:\n%s" % (
            rctx.name,
            what,
            result.return_code,
            " ".join([str(a) for a in argv]),
            result.stdout,
            result.stderr,
        ))
    return result.stdout

def base_interpreter(rctx, name, env_variable):
    """The real path of interpreter `name` ($<env_variable> when set): found on PATH, or under pyenv's
    versions when PATH has only a pyenv shim that is not enabled for it."""
    name = rctx.os.environ.get(env_variable, name)
    candidates = [rctx.path(name)] if name.startswith("/") else [rctx.which(name)]
    pyenv = rctx.os.environ.get("PYENV_ROOT", rctx.os.environ.get("HOME", "") + "/.pyenv")
    listed = rctx.execute(["sh", "-c", "ls -d %s/versions/*/bin/%s 2>/dev/null" % (pyenv, name)], quiet = True)
    candidates += [rctx.path(p) for p in listed.stdout.strip().split("\n") if p]
    for path in candidates:
        if path == None or not path.exists:
            continue
        found = rctx.execute([path, "-c", "import sys; print(sys.executable)"], quiet = True)
        if found.return_code == 0:
            return found.stdout.strip()
    fail("%s: no Python interpreter '%s' (on PATH or under %s/versions); install it or set %s" % (
        rctx.name,
        name,
        pyenv,
        env_variable,
    ))

def make_venv(rctx, base, lock, extra_pip_flags = [], timeout = 1800):
    """Makes venv-<hash of the lock file and interpreter> with `base` and installs `lock` into it with
    --require-hashes; returns the path of its python3."""
    key = run(rctx, [base, "-c", "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read() + sys.version.encode()).hexdigest()[:12])", lock], "hashing the lock file").strip()
    venv = "venv-" + key
    rctx.report_progress("creating %s with %s" % (venv, base))
    run(rctx, [base, "-m", "venv", venv], "python -m venv")
    python = rctx.path(venv + "/bin/python3")
    rctx.report_progress("pip install --require-hashes -r %s" % lock.basename)
    run(rctx, [
        python,
        "-m",
        "pip",
        "install",
        "--no-input",
        "--disable-pip-version-check",
        "--require-hashes",
        "--only-binary=:all:",
    ] + extra_pip_flags + ["-r", lock], "pip install", timeout = timeout)
    return python
