#include "library_loader.h"
#include "loader.h"

/* The functions of libsystemd's sd-bus (MediaPlayerService's D-Bus connection) that smfplay calls. */
#define FUNCTIONS(F) \
    F(sd_bus_add_object_vtable) F(sd_bus_close_unref) F(sd_bus_emit_properties_changed_strv) F(sd_bus_error_set) \
    F(sd_bus_flush_close_unref) F(sd_bus_get_events) F(sd_bus_get_fd) F(sd_bus_get_timeout) \
    F(sd_bus_message_append_basic) F(sd_bus_message_close_container) F(sd_bus_message_get_member) \
    F(sd_bus_message_get_errno) F(sd_bus_message_new_method_return) F(sd_bus_message_new_signal) \
    F(sd_bus_message_open_container) F(sd_bus_message_read_basic) F(sd_bus_message_unref) \
    F(sd_bus_open_user) F(sd_bus_process) F(sd_bus_request_name_async) F(sd_bus_send) F(sd_bus_slot_unref) \
    F(sd_bus_wait)

SMFPLAY_LIBRARY(smfplay_load_libsystemd, "libsystemd.so.0", FUNCTIONS)
