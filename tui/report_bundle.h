/* What a recorded run's report carries so that whoever reads it can rerun it (`kladder report`,
 * tui/run_report.h): a run of the user's own suite (its recorded command names a manifest or a
 * .cu/.hip file by path) gets a shell script that writes the manifest and its kernel source into
 * a new folder and runs the same command there, with --suite pointing at the copy. A built-in
 * suite or case needs nothing: the recipient's kladder carries it.
 *
 * The files are read when the report is written, from the path the run recorded (absolute since
 * `kladder run` records it so; a relative one of an older run is tried from the current folder),
 * so they are the files as they are now on this machine; the note says so. A file that is gone,
 * unreadable or over 256 KiB is named in the note instead of bundled; a prebuilt code object is
 * binary and never bundled. */
#ifndef KL_TUI_REPORT_BUNDLE_H
#define KL_TUI_REPORT_BUNDLE_H

struct tui_bundle {
    char *note;   /* a sentence for the report; NULL when the run needs no files */
    char *script; /* the script; NULL when no file could be bundled */
};

/* Fills b from a run's recorded command line ("kladder run --suite PATH ...") and its id (which
 * names the script's folder). Free with tui_bundle_free. */
void tui_report_bundle(const char *argv_text, const char *run_id, struct tui_bundle *b);
void tui_bundle_free(struct tui_bundle *b);

#endif
