/* fuzz/fuzz_launch.c — libFuzzer target for the launch-file reader: any
 * bytes as a .jsonl (one case per line, each line read on its own, a bad
 * line a case that fails alone), every case read and then set up as a run
 * sets it up: buffers allocated and initialised, tensor maps encoded (the
 * driver's validation and the 128-byte image), map images written into
 * buffers.  Nothing launches.  Messages are swallowed; only crashes,
 * sanitizer reports and hangs count.  Seeds: the repository's launch
 * files (make fuzz-run writes them).  Buffers are capped at 1 MiB each so
 * that a `"bytes": 1e12` case does not report out-of-memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "launch/launch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char path[] = "/tmp/ptxi-fuzz-launch-XXXXXX.jsonl";
    int fd = mkstemps(path, 6);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    launch_case *cases = NULL;
    size_t n = 0;
    char err[1024];
    if (launch_read_file_all(path, &cases, &n, err, sizeof err) == 0) {
        for (size_t i = 0; i < n; i++) {
            launch_case *c = &cases[i];
            if (c->broken)
                continue;
            uint64_t total = 0;
            for (size_t b = 0; b < c->nbuffers; b++)
                total += c->buffers[b].bytes > (1u << 20) ? (1u << 30) : c->buffers[b].bytes;
            if (total > (8u << 20))
                continue;
            mem_global *g = mem_global_new();
            if (!g)
                continue;
            launch_setup(c, g, err, sizeof err);
            mem_global_free(g);
        }
        launch_free_all(cases, n);
    }
    unlink(path);
    return 0;
}
