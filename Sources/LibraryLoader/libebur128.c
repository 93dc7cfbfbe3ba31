#include "library_loader.h"
#include "loader.h"

/* The functions of libebur128 (Loudness) that smfplay calls. */
#define FUNCTIONS(F) \
    F(ebur128_add_frames_float) F(ebur128_destroy) F(ebur128_init) F(ebur128_loudness_global) \
    F(ebur128_true_peak)

SMFPLAY_LIBRARY(smfplay_load_libebur128, "libebur128.so.1", FUNCTIONS)
