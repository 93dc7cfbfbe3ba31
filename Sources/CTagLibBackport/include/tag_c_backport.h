#ifndef SMFPLAY_TAG_C_BACKPORT_H
#define SMFPLAY_TAG_C_BACKPORT_H

/*
 * What TagLib 2's C API adds that smfplay needs and TagLib 1.13's (Debian 12's libtagc0) lacks,
 * written against TagLib 1.13's C++ API. Each function does what its TagLib 2 namesake (without
 * the smfplay_ prefix) does; when Debian ships TagLib 2, the namesakes replace them and this
 * target goes.
 *
 * 1.13's C API opens a file by its extension or as one of the types of TagLib_File_Type, and
 * smfplay tags a temporary file whose name has no extension: AIFF and Opus are not among those
 * types. Its setters write title, artist, album, comment, genre and a year as a number, nothing
 * else: no copyright, no full date, no ReplayGain.
 */

#include <taglib/tag_c.h>

#ifdef __cplusplus
extern "C" {
#endif

/* taglib_file_new_type(filename, TagLib_File_AIFF): an AIFF file, its tag an ID3v2 chunk. */
TagLib_File *smfplay_taglib_file_new_aiff(const char *filename);

/* taglib_file_new_type(filename, TagLib_File_Opus): an Ogg Opus file, its tag Vorbis comments. */
TagLib_File *smfplay_taglib_file_new_opus(const char *filename);

/*
 * taglib_property_set: sets the property `prop` (TagLib's names: "TITLE", "COPYRIGHT",
 * "REPLAYGAIN_TRACK_GAIN"...) to `value`, in UTF-8, in place of the values it had; NULL removes
 * it. The other properties stay. Saved by taglib_file_save.
 */
void smfplay_taglib_property_set(TagLib_File *file, const char *prop, const char *value);

#ifdef __cplusplus
}
#endif

#endif
