#include "library_loader.h"
#include "loader.h"

/* The functions of libarchive that smfplay calls (Files' LibArchivePass). */
#define FUNCTIONS(F)                                                                                     \
    F(archive_entry_filetype) F(archive_entry_is_encrypted) F(archive_entry_pathname) F(archive_error_string) \
    F(archive_filter_bytes) F(archive_read_data) F(archive_read_free) F(archive_read_header_position)      \
    F(archive_read_new) F(archive_read_next_header) F(archive_read_open_fd) F(archive_read_open_memory)    \
    F(archive_read_set_format_option) F(archive_read_support_filter_all)                                  \
    F(archive_read_support_format_7zip) F(archive_read_support_format_lha)                                \
    F(archive_read_support_format_rar) F(archive_read_support_format_rar5)                                \
    F(archive_read_support_format_tar) F(archive_read_support_format_zip)

SMFPLAY_LIBRARY(smfplay_load_libarchive, "libarchive.so.13", FUNCTIONS)
