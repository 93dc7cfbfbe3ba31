#ifndef SMFPLAY_LIBRARY_LOADER_H
#define SMFPLAY_LIBRARY_LOADER_H

#include <stddef.h>

/*
 * The C libraries that only some commands need, opened when first needed instead of when smfplay
 * starts: a command that makes no sound (info, search, thumbnail, --version) then maps none of
 * them, nor the dozens of libraries they bring (FluidSynth alone brings GLib, SDL2, X11, JACK).
 *
 * smfplay calls these libraries' functions by their own names, as if linked: each name is a
 * trampoline here (one jump through a pointer, whatever the function's signature) that the
 * library's loader points at the library's function. A wrapping module loads its library before
 * its first call; a call before that stops smfplay with a message saying so.
 *
 * Each loader returns NULL once its library is loaded (at once after the first time), or why
 * not: the dynamic loader's words (the file missing, a function not in it), kept for the
 * process's life; a library that could not be loaded is not tried again.
 */

const char *smfplay_load_libarchive(void);
const char *smfplay_load_libebur128(void);
const char *smfplay_load_libfluidsynth(void);
const char *smfplay_load_liblhasa(void);
const char *smfplay_load_libpulse(void);
const char *smfplay_load_libsndfile(void);
const char *smfplay_load_libsystemd(void);
const char *smfplay_load_libtag(void);
const char *smfplay_load_libtag_c(void);

#endif
