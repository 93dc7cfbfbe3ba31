// TagLib 2's C API functions that smfplay needs, on TagLib 1.13 (see include/tag_c_backport.h).
#include "tag_c_backport.h"

#include <taglib/aifffile.h>
#include <taglib/opusfile.h>
#include <taglib/tfile.h>
#include <taglib/tpropertymap.h>

// TagLib 1.13's C API hands out a TagLib::File as its TagLib_File (taglib_file_new_type and the
// others cast it so); these do the same, so that taglib_file_save and taglib_file_free take theirs.

TagLib_File *smfplay_taglib_file_new_aiff(const char *filename) {
    return reinterpret_cast<TagLib_File *>(new TagLib::RIFF::AIFF::File(filename));
}

TagLib_File *smfplay_taglib_file_new_opus(const char *filename) {
    return reinterpret_cast<TagLib_File *>(new TagLib::Ogg::Opus::File(filename));
}

void smfplay_taglib_property_set(TagLib_File *file, const char *prop, const char *value) {
    if (file == nullptr || prop == nullptr) return;
    auto tagLibFile = reinterpret_cast<TagLib::File *>(file);
    // The whole map, changed in one key and set back: setProperties removes what it is not given.
    TagLib::PropertyMap map = tagLibFile->properties();
    TagLib::String key(prop, TagLib::String::UTF8);
    if (value != nullptr) {
        map.replace(key, TagLib::StringList(TagLib::String(value, TagLib::String::UTF8)));
    } else {
        map.erase(key);
    }
    tagLibFile->setProperties(map);
}
