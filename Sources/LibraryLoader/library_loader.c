// RTLD_DEFAULT.
#define _GNU_SOURCE

#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void smfplay_library_not_loaded(void) {
    // A programming error: the wrapping module called its library before loading it.
    fputs("smfplay: internal error: a library's function was called before the library was loaded\n", stderr);
    abort();
}

const char *smfplay_load_library(struct smfplay_library *library) {
    pthread_mutex_lock(&library->lock);
    if (!library->loaded && library->error[0] == 0) {
        // Global, and each function looked up as a linked one would be (the preloaded first: a shim
        // in LD_PRELOAD still stands in for a library's function, as it does for a linked one).
        void *handle = dlopen(library->file, RTLD_LAZY | RTLD_GLOBAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(library->error, sizeof library->error, "%s", reason != NULL ? reason : library->file);
        } else {
            for (size_t index = 0; index < library->count; index++) {
                void *function = dlsym(RTLD_DEFAULT, library->symbols[index].name);
                if (function == NULL) {
                    snprintf(library->error, sizeof library->error, "%s has no function %s", library->file, library->symbols[index].name);
                    dlclose(handle);
                    handle = NULL;
                    break;
                }
                *library->symbols[index].pointer = function;
            }
            library->loaded = handle != NULL;
        }
    }
    const char *reason = library->loaded ? NULL : library->error;
    pthread_mutex_unlock(&library->lock);
    return reason;
}
