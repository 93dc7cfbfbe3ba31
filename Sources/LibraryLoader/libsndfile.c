#include "library_loader.h"
#include "loader.h"

/* The functions of libsndfile (AudioOutput's audio files) that smfplay calls. */
#define FUNCTIONS(F) \
    F(sf_close) F(sf_command) F(sf_error) F(sf_error_number) F(sf_format_check) F(sf_get_string) \
    F(sf_open_virtual) F(sf_readf_float) F(sf_seek) F(sf_set_string) F(sf_strerror) \
    F(sf_writef_float)

SMFPLAY_LIBRARY(smfplay_load_libsndfile, "libsndfile.so.1", FUNCTIONS)
