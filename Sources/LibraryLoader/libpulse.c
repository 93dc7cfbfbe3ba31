#include "library_loader.h"
#include "loader.h"

/* The functions of PulseAudio's client library (AudioOutput's PulseAudioMainLoop and stream) that smfplay calls. */
#define FUNCTIONS(F) \
    F(pa_bytes_to_usec) F(pa_context_connect) F(pa_context_disconnect) F(pa_context_errno) \
    F(pa_context_get_server) F(pa_context_get_state) F(pa_context_new) F(pa_context_rttime_new) \
    F(pa_context_set_state_callback) F(pa_context_unref) F(pa_mainloop_api_once) \
    F(pa_operation_cancel) F(pa_operation_get_state) F(pa_operation_unref) F(pa_proplist_free) \
    F(pa_proplist_new) F(pa_proplist_sets) F(pa_rtclock_now) F(pa_sample_spec_valid) \
    F(pa_stream_begin_write) F(pa_stream_cancel_write) F(pa_stream_connect_playback) \
    F(pa_stream_cork) F(pa_stream_disconnect) F(pa_stream_drain) F(pa_stream_flush) \
    F(pa_stream_get_buffer_attr) F(pa_stream_get_context) F(pa_stream_get_latency) \
    F(pa_stream_get_state) F(pa_stream_get_timing_info) F(pa_stream_get_underflow_index) \
    F(pa_stream_new_with_proplist) F(pa_stream_set_state_callback) \
    F(pa_stream_set_underflow_callback) F(pa_stream_set_write_callback) F(pa_stream_unref) \
    F(pa_stream_update_timing_info) F(pa_stream_writable_size) F(pa_stream_write) F(pa_strerror) \
    F(pa_threaded_mainloop_free) F(pa_threaded_mainloop_get_api) F(pa_threaded_mainloop_in_thread) \
    F(pa_threaded_mainloop_lock) F(pa_threaded_mainloop_new) F(pa_threaded_mainloop_once_unlocked) \
    F(pa_threaded_mainloop_set_name) F(pa_threaded_mainloop_signal) F(pa_threaded_mainloop_start) \
    F(pa_threaded_mainloop_stop) F(pa_threaded_mainloop_unlock) F(pa_threaded_mainloop_wait) \
    F(pa_usec_to_bytes)

SMFPLAY_LIBRARY(smfplay_load_libpulse, "libpulse.so.0", FUNCTIONS)
