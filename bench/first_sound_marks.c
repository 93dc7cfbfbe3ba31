/* Marks for bench/play.sh's "marks" part: an LD_PRELOAD library that notes, in milliseconds
 * since the launch, when a player reaches each step on the way to its first sound. The launcher
 * reads CLOCK_MONOTONIC just before it forks and passes it as FIRST_SOUND_T0 (ms); the marks are
 * appended to the file FIRST_SOUND_MARKS, one "name ms" line each, the first time each happens:
 *   loaded       the libraries are loaded and relocated (this library's constructor)
 *   settings     new_fluid_settings begins
 *   synth        new_fluid_synth begins;  synth-made: it returns
 *   sfload       fluid_synth_sfload begins; sfload-done: it returns
 *   written      the first buffer with sound is handed to libpulse (pa_stream_write: smfplay,
 *                32-bit float; pa_simple_write: fluidsynth, 16-bit by default)
 * Each wrapper calls the real function (dlsym RTLD_NEXT) and changes nothing else. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double launched;
static int marks = -1;

static double since_launch(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6 - launched;
}

static void mark(const char *name, int *done) {
    if (*done || marks < 0) return;
    *done = 1;
    char line[96];
    int length = snprintf(line, sizeof line, "%s %.3f\n", name, since_launch());
    if (length > 0) (void)!write(marks, line, (size_t)length);
}

/* The real function, found once: REAL(name, its type's typedef). */
#define REAL(name, type) static type real; if (!real) real = (type)dlsym(RTLD_NEXT, name)

typedef void *(*settings_f)(void);
typedef void *(*synth_f)(void *);
typedef int (*sfload_f)(void *, const char *, int);
typedef int (*stream_write_f)(void *, const void *, size_t, void (*)(void *), long long, int);
typedef int (*simple_write_f)(void *, const void *, size_t, int *);

__attribute__((constructor)) static void loaded(void) {
    const char *t0 = getenv("FIRST_SOUND_T0"), *path = getenv("FIRST_SOUND_MARKS");
    if (!t0 || !path) return;
    launched = atof(t0);
    marks = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    static int done;
    mark("loaded", &done);
}

void *new_fluid_settings(void) {
    REAL("new_fluid_settings", settings_f);
    static int done;
    mark("settings", &done);
    return real();
}

void *new_fluid_synth(void *settings) {
    REAL("new_fluid_synth", synth_f);
    static int begun, made;
    mark("synth", &begun);
    void *synth = real(settings);
    mark("synth-made", &made);
    return synth;
}

int fluid_synth_sfload(void *synth, const char *path, int reset) {
    REAL("fluid_synth_sfload", sfload_f);
    static int begun, done;
    mark("sfload", &begun);
    int id = real(synth, path, reset);
    mark("sfload-done", &done);
    return id;
}

int pa_stream_write(void *stream, const void *data, size_t bytes, void (*free_cb)(void *), long long offset, int seek) {
    REAL("pa_stream_write", stream_write_f);
    static int done;
    if (!done && data) {
        const float *samples = data; /* smfplay writes 32-bit float */
        for (size_t i = 0; i < bytes / sizeof(float); i++)
            if (samples[i] > 1e-4f || samples[i] < -1e-4f) { mark("written", &done); break; }
    }
    return real(stream, data, bytes, free_cb, offset, seek);
}

int pa_simple_write(void *stream, const void *data, size_t bytes, int *error) {
    REAL("pa_simple_write", simple_write_f);
    static int done;
    if (!done && data) {
        const short *samples = data;
        for (size_t i = 0; i < bytes / sizeof(short); i++)
            if (samples[i] > 3 || samples[i] < -3) { mark("written", &done); break; }
    }
    return real(stream, data, bytes, error);
}
