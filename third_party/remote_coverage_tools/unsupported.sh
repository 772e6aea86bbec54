#!/bin/sh
echo "bazel coverage is not supported: this build is offline and has no coverage tools" >&2
exit 1
