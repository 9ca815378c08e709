/* Reading NVIDIA compute-sanitizer's text report (its racecheck, synccheck and memcheck tools)
 * into one record per hazard, for the vendor sanitizer beside a rung.
 *
 * Every report line starts with "========= ". A hazard is a head line and the location lines
 * under it:
 *   racecheck  "Error: Race reported between Write access at LOC" (or "Warning: ..."), then
 *              "and Read access at LOC [N hazards]"
 *   synccheck  "Barrier error detected. Divergent thread(s) in warp", then "at LOC" and
 *              "by thread (x,y,z) in block (x,y,z)"
 *   memcheck   "Invalid __global__ write of size 4 bytes" (any "Invalid ..." or "Misaligned ..."
 *              head), then "at LOC", "by thread ... in block ...", "Address 0x... is ..."
 * LOC is "kernel(args)+0xOFF in file:line" (releases since 2022) or "0xOFF in
 * file:line:kernel(args)" (earlier), or either without the source part. Summary lines, host
 * backtraces and lines of the program's own are skipped. Nothing here runs anything. */
#ifndef KL_ENGINE_SANITIZER_LOG_H
#define KL_ENGINE_SANITIZER_LOG_H

#include <stddef.h>

/* One access of a hazard: where in which kernel. Strings are printable ASCII only. */
struct eng_san_site {
    char access[16];  /* "Write", "Read" (racecheck), "" otherwise */
    char kernel[96];  /* the kernel's name without its arguments, "" when the line had none */
    char offset[24];  /* "0x1c0": the code offset in the kernel */
    char source[96];  /* "file.cu:13", or "" without line information */
};

struct eng_san_hazard {
    char tool[12];            /* racecheck, synccheck or memcheck */
    char kind[96];            /* "race (error) between a Write and a Read access", or the head
                               * line: "Invalid __global__ write of size 4 bytes", ... */
    struct eng_san_site site[2]; /* racecheck: both accesses; otherwise site[0] only */
    int nsites;
    char thread[64];          /* "thread (0,0,0) in block (3,0,0)", or "" */
    char address[96];         /* "Address 0x7f.. is out of bounds", or "" */
    unsigned long count;      /* racecheck's "[N hazards]", else 1 */
};

/* Reads text (tool: "racecheck", "synccheck" or "memcheck"; the hazards of other tools' heads
 * are still read, named by tool) into at most max hazards. Returns how many there were (may
 * exceed max: only max are stored). */
size_t eng_san_parse(const char *tool, const char *text, struct eng_san_hazard *out, size_t max);

/* One hazard as a sentence for a check's detail: "racecheck: race (error) between a Write and a
 * Read access in sumKernel: Write at sumKernel+0x1c0 (raceGroupBasic.cu:13), Read at
 * sumKernel+0x1e0 (raceGroupBasic.cu:14), 4 hazards". */
void eng_san_describe(const struct eng_san_hazard *h, char *out, size_t n);

#endif
