#ifndef SMFPLAY_LOADER_H
#define SMFPLAY_LOADER_H

/* What each library's file of trampolines (libarchive.c, libfluidsynth.c…) is made of. */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct smfplay_symbol {
    const char *name;
    void **pointer;
};

struct smfplay_library {
    /* The file's name as the dynamic loader finds it: the soname of the ABI smfplay is built for. */
    const char *file;
    const struct smfplay_symbol *symbols;
    size_t count;
    pthread_mutex_t lock;
    bool loaded;
    /* Why it could not be loaded, once tried; it is not tried again. */
    char error[512];
};

void smfplay_library_not_loaded(void);
const char *smfplay_load_library(struct smfplay_library *library);

/*
 * FUNCTIONS(SMFPLAY_POINTER) and FUNCTIONS(SMFPLAY_TRAMPOLINE) make, for each function, a pointer
 * (first at smfplay_library_not_loaded) and a hidden global symbol of the function's name that
 * jumps through it: hidden, so that the libraries, loaded, still call each other and not these.
 * FUNCTIONS(SMFPLAY_SYMBOL) lists them for the loader.
 */
#define SMFPLAY_POINTER(name) __attribute__((visibility("hidden"), used)) void *smfplay_pointer_##name = (void *)smfplay_library_not_loaded;
#define SMFPLAY_SYMBOL(name) {#name, &smfplay_pointer_##name},

#if defined(__x86_64__)
#define SMFPLAY_TRAMPOLINE(name) \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", @function\n.p2align 4\n" #name ":\n" \
            "\tjmp *smfplay_pointer_" #name "(%rip)\n.size " #name ", .-" #name "\n");
#elif defined(__aarch64__)
#define SMFPLAY_TRAMPOLINE(name) \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", %function\n.p2align 2\n" #name ":\n" \
            "\tadrp x16, smfplay_pointer_" #name "\n\tldr x16, [x16, #:lo12:smfplay_pointer_" #name "]\n\tbr x16\n" \
            ".size " #name ", .-" #name "\n");
#else
#error "smfplay's library loader has trampolines for x86-64 and AArch64 only"
#endif

#define SMFPLAY_LIBRARY(loader, soname, FUNCTIONS)                                                            \
    FUNCTIONS(SMFPLAY_POINTER)                                                                                 \
    FUNCTIONS(SMFPLAY_TRAMPOLINE)                                                                              \
    static const struct smfplay_symbol loader##_symbols[] = {FUNCTIONS(SMFPLAY_SYMBOL)};                      \
    static struct smfplay_library loader##_library = {                                                         \
        soname, loader##_symbols, sizeof loader##_symbols / sizeof loader##_symbols[0],                          \
        PTHREAD_MUTEX_INITIALIZER, false, {0}};                                                                \
    const char *loader(void) { return smfplay_load_library(&loader##_library); }

#endif
