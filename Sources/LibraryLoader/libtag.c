#include "library_loader.h"
#include "loader.h"

/*
 * The functions of TagLib that smfplay calls: its C API's (libtag_c), and, through
 * CTagLibBackport, the C++ API's (libtag, by their mangled names: a trampoline is a jump
 * whatever the function's language).
 */
#define C_FUNCTIONS(F) \
    F(taglib_file_free) F(taglib_file_is_valid) F(taglib_file_new_type) F(taglib_file_save)

SMFPLAY_LIBRARY(smfplay_load_libtag_c, "libtag_c.so.0", C_FUNCTIONS)

#define CPP_FUNCTIONS(F) \
    F(_ZN6TagLib10StringListC1ERKNS_6StringE) F(_ZN6TagLib10StringListD1Ev) \
    F(_ZN6TagLib11PropertyMap5eraseERKNS_6StringE) \
    F(_ZN6TagLib11PropertyMap7replaceERKNS_6StringERKNS_10StringListE) \
    F(_ZN6TagLib11PropertyMapD1Ev) F(_ZN6TagLib3Ogg4Opus4FileC1EPKcbNS_15AudioProperties9ReadStyleE) \
    F(_ZN6TagLib4File13setPropertiesERKNS_11PropertyMapE) \
    F(_ZN6TagLib4RIFF4AIFF4FileC1EPKcbNS_15AudioProperties9ReadStyleE) \
    F(_ZN6TagLib6StringC1EPKcNS0_4TypeE) F(_ZN6TagLib6StringD1Ev) F(_ZNK6TagLib4File10propertiesEv)

SMFPLAY_LIBRARY(smfplay_load_libtag, "libtag.so.1", CPP_FUNCTIONS)
