#include "library_loader.h"
#include "loader.h"

/* The functions of liblhasa that smfplay calls (Files' LhasaDecoder): its decoders of the LZH methods
 * libarchive has none for (LHarc 1's -lh1-), over a member's compressed bytes. */
#define FUNCTIONS(F) \
    F(lha_decoder_for_name) F(lha_decoder_free) F(lha_decoder_get_crc) F(lha_decoder_new) F(lha_decoder_read)

SMFPLAY_LIBRARY(smfplay_load_liblhasa, "liblhasa.so.0", FUNCTIONS)
