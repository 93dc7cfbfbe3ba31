/* liblhasa's decoders alone: its archive reader parts a Shift-JIS name at a 0x5C byte, so libarchive
 * reads the names (Files' LhasaDecoder). Through its folder, which is not on the default include
 * path: a pkgConfig's flags would link the library, which is opened at its first use. */
#include <liblhasa-1.0/lha_decoder.h>
