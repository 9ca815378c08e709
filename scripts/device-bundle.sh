#!/usr/bin/env bash
# Run here, on the build machine: builds kladder, bench/kbench and libkladder.so (the C API the
# Python package loads, docs/python.md) and copies them, with every shared library they load at
# start-up except the C library's own, into BUILD/device/, so they run on another x86-64 Linux
# (with a newer or equal glibc) without installing packages.
#
# Not bundled on purpose: libcuda (belongs to the installed driver) and NVRTC (the machine's own
# CUDA toolkit is found under /usr/local/cuda*; KLADDER_NVRTC names another), libamdhip64.
#
#   scripts/device-bundle.sh            BUILD=build (default) or BUILD=build/gpu
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
# `make all` builds both binaries (kbench under the same warnings as the rest)
make --no-print-directory -j"$(nproc)" BUILD="$BUILD" all

out=$BUILD/device
rm -rf "$out"
mkdir -p "$out/lib"
cp "$BUILD/kladder" "$BUILD/kbench" "$BUILD/libkladder.so" "$out/"

# glibc's own libraries must come from the target machine (they go with its ld.so).
is_glibc() {
    case "$(basename "$1")" in
        ld-linux*|libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|\
        libutil.so.*|libanl.so.*|libnss_*|libmvec.so.*|libBrokenLocale.so.*) return 0 ;;
    esac
    return 1
}
for bin in "$out/kladder" "$out/kbench" "$out/libkladder.so"; do
    if ldd "$bin" | grep -q 'not found'; then
        ldd "$bin" | grep 'not found' >&2
        echo "device-bundle: $bin has unresolved libraries here" >&2
        exit 1
    fi
    ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r lib; do
        # libkladder.so finds what is bundled already through its $ORIGIN/lib
        [ "$(realpath "$(dirname "$lib")")" = "$(realpath "$out/lib")" ] && continue
        is_glibc "$lib" || cp -Lu "$lib" "$out/lib/"
    done
done
{
    echo "kladder device bundle, built $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    echo "build glibc: $(ldd --version | head -n 1)"
    echo "libraries:"
    (cd "$out/lib" && ls -1)
} >"$out/MANIFEST"
size=$(du -sm "$out" | cut -f1)
echo "device-bundle: $out ($size MiB): kladder, kbench, libkladder.so and $(ls "$out/lib" | wc -l) libraries"
if [ "$size" -ge 60 ]; then
    echo "device-bundle: warning: $size MiB is close to what can be carried to a device machine" >&2
fi
