extension SMFReader.Output {
    /// A translated song of several tracks (HMP, HMI): a first track with the tempo
    /// `beatsPerMinute` says, ended with the longest of `tracks`, then `tracks`.
    init(beatsPerMinute: Int, ticksPerQuarterNote: UInt16, tracks: [Track], kind: MIDIFile.Kind, log: WarningLog) {
        var tempo = Track()
        tempo.append(.meta(.tempo(microsecondsPerQuarterNote: UInt32(min(60_000_000 / max(1, beatsPerMinute), 0xFF_FFFF)))), atTick: 0)
        tempo.appendEnd(atTick: UInt64(tracks.map(\.lengthInTicks).max() ?? 0))
        self.init(
            file: MIDIFile(
                format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: ticksPerQuarterNote), tracks: [tempo] + tracks, kind: kind
            ),
            warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }
}
