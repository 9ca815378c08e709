/* The worker side of `kladder run` (`kladder run --worker`): reads job lines on stdin and
 * answers each on stdout (engine/watchdog/watchdog.h describes the protocol). */
#define _GNU_SOURCE
#include <cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend/devices.h"
#include "engine/exec/worker.h"
#include "engine/session/session.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif

static void say_ready(void *arg)
{
    (void)arg;
    fputs("{\"ready\":true}\n", stdout);
    fflush(stdout);
}

/* {"job": "build", "spec": {...}}: whether the check's suite source compiles (eng_check_build),
 * answered {"built": true|false|null, "why": TEXT}; null when there is nothing to judge. */
static bool answer_build(const cJSON *spec)
{
    char *text = spec ? cJSON_PrintUnformatted(spec) : NULL;
    struct eng_check_spec s;
    char err[1024] = "";
    bool ok = text && eng_check_spec_parse(text, &s, err, sizeof err) == 0;
    free(text);
    cJSON *o = cJSON_CreateObject();
    if (!ok) {
        cJSON_AddStringToObject(o, "error", "worker: no valid spec to build");
    } else {
        int rc = eng_check_build(&s, err, sizeof err);
        cJSON_AddItemToObject(o, "built", rc == 0 ? cJSON_CreateTrue()
                                          : rc < 0 ? cJSON_CreateFalse() : cJSON_CreateNull());
        cJSON_AddStringToObject(o, "why", rc < 0 ? err : "");
        eng_check_spec_free(&s);
    }
    char *line = cJSON_PrintUnformatted(o);
    printf("%s\n", line);
    free(line);
    cJSON_Delete(o);
    return ok;
}

/* One job line: {"job": "probe", "backend": NAME|null}, {"job": "check", "spec": {...}} or
 * {"job": "build", "spec": {...}}.
 * Writes its answer line; returns false when the job was not understood. */
static bool answer_job(const char *line)
{
    cJSON *j = cJSON_Parse(line);
    if (!j) {
        fputs("{\"error\":\"worker: the job is not valid JSON\"}\n", stdout);
        return false;
    }
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "job");
    bool ok = true;
    if (cJSON_IsString(kind) && strcmp(kind->valuestring, "probe") == 0) {
        const cJSON *only = cJSON_GetObjectItemCaseSensitive(j, "backend");
        cJSON *devs = eng_devices_json(cJSON_IsString(only) ? only->valuestring : NULL);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "devices", devs);
        char *text = cJSON_PrintUnformatted(o);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(o);
    } else if (cJSON_IsString(kind) && strcmp(kind->valuestring, "check") == 0) {
        const cJSON *spec = cJSON_GetObjectItemCaseSensitive(j, "spec");
        char *text = spec ? cJSON_PrintUnformatted(spec) : NULL;
        struct eng_check_spec s;
        char err[512];
        if (!text || eng_check_spec_parse(text, &s, err, sizeof err) != 0) {
            printf("{\"error\":\"worker: %s\"}\n", text ? err : "no spec");
            ok = false;
        } else {
            struct eng_check_result r;
            eng_check_run(&s, say_ready, NULL, &r);
            char *rt = eng_check_result_json(&r);
            printf("{\"result\":%s}\n", rt);
            free(rt);
            eng_check_spec_free(&s);
        }
        free(text);
    } else if (cJSON_IsString(kind) && strcmp(kind->valuestring, "build") == 0) {
        ok = answer_build(cJSON_GetObjectItemCaseSensitive(j, "spec"));
    } else {
        fputs("{\"error\":\"worker: unknown job\"}\n", stdout);
        ok = false;
    }
    fflush(stdout);
    cJSON_Delete(j);
    return ok;
}

int eng_worker_main(void)
{
    /* Jobs one after another until the parent closes our input: the backend's libraries, its
     * context and the compiled utility kernels stay loaded between checks (engine/session/session.h). */
#ifdef __linux__
    /* A parent killed outright (SIGKILL) cannot stop us, and a kernel that never returns never
     * reads the closed input: die with the parent instead of spinning on. A parent that died
     * before this line closed our input, so the loop below ends at once. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int status = 0;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        if (len && !answer_job(line))
            status = 2;
    }
    free(line);
    eng_check_worker_end();
    eng_session_end();
    return status;
}

