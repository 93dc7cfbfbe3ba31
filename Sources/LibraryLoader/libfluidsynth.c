#include "library_loader.h"
#include "loader.h"

/* The functions of FluidSynth that smfplay calls (Synthesis). */
#define FUNCTIONS(F) \
    F(delete_fluid_settings) F(delete_fluid_sfloader) F(delete_fluid_synth) \
    F(fluid_preset_get_banknum) F(fluid_preset_get_name) F(fluid_preset_get_num) \
    F(fluid_set_log_function) F(fluid_settings_setint) F(fluid_settings_setnum) \
    F(fluid_sfloader_set_callbacks) F(fluid_sfont_iteration_next) F(fluid_sfont_iteration_start) \
    F(fluid_synth_add_sfloader) F(fluid_synth_all_notes_off) F(fluid_synth_all_sounds_off) \
    F(fluid_synth_cc) F(fluid_synth_channel_pressure) F(fluid_synth_chorus_on) \
    F(fluid_synth_get_active_voice_count) F(fluid_synth_get_cc) F(fluid_synth_get_pitch_bend) \
    F(fluid_synth_get_program) F(fluid_synth_get_sfont_by_id) F(fluid_synth_get_voicelist) \
    F(fluid_synth_key_pressure) F(fluid_synth_noteoff) F(fluid_synth_noteon) \
    F(fluid_synth_pitch_bend) F(fluid_synth_process) F(fluid_synth_program_select) \
    F(fluid_synth_reverb_on) F(fluid_synth_set_channel_type) F(fluid_synth_set_chorus_group_depth) \
    F(fluid_synth_set_chorus_group_level) F(fluid_synth_set_chorus_group_nr) \
    F(fluid_synth_set_chorus_group_speed) F(fluid_synth_set_gain) F(fluid_synth_set_gen) \
    F(fluid_synth_set_interp_method) F(fluid_synth_set_polyphony) \
    F(fluid_synth_set_reverb_group_damp) F(fluid_synth_set_reverb_group_level) \
    F(fluid_synth_set_reverb_group_roomsize) F(fluid_synth_set_reverb_group_width) \
    F(fluid_synth_sfload) F(fluid_synth_sysex) F(fluid_synth_system_reset) \
    F(fluid_synth_write_float) F(fluid_voice_gen_get) F(fluid_voice_get_channel) \
    F(fluid_voice_get_id) F(fluid_voice_is_on) F(fluid_voice_is_playing) F(new_fluid_defsfloader) \
    F(new_fluid_settings) F(new_fluid_synth)

SMFPLAY_LIBRARY(smfplay_load_libfluidsynth, "libfluidsynth.so.3", FUNCTIONS)
