/// The standards a MIDI file is written for, as the configuration names them (`midi_mode`, the
/// keys of `[soundfonts]`).
public enum SongStandard: String, CaseIterable, Hashable, Sendable {
    case gm, gs, xg, gm2
}
