import SMF

extension CompatibilityFeature {
    /// Every feature, in the order of the README's table.
    public static let all: [CompatibilityFeature] = [
        gsRhythmPart, gsRhythmPartOff, gsBadChecksum, gsMasterKeyShift, gsPartLevel, gsReceiveChannel, gsResetRestores,
        xgDrumKit, xgPartMode, xgSFXKit, xgDetectedFromBanks, gm2RhythmBank, gm2CoarseTuning, capitalTone,
    ]

    static let plain = Arrangement()

    static let gsRhythmPart = CompatibilityFeature(
        "gs-rhythm-part", "GS \"use for rhythm part\" makes channel 11 a drum part",
        feature: Arrangement(setUp: [SystemExclusive.gsReset, SystemExclusive.gsRhythmPart(channel: 10, isDrum: true)], drumChannel: 10),
        reference: plain,
        wrong: Arrangement(setUp: [SystemExclusive.gsReset], drumChannel: 10))

    static let gsRhythmPartOff = CompatibilityFeature(
        "gs-rhythm-part-off", "GS \"use for rhythm part\" 0 makes channel 10 play a piano",
        feature: Arrangement(
            setUp: [SystemExclusive.gsReset, SystemExclusive.gsRhythmPart(channel: 9, isDrum: false), .programChange(channel: 9, program: 0)],
            melodyChannels: [9], drumChannel: nil),
        reference: Arrangement(drumChannel: nil),
        wrong: Arrangement(setUp: [SystemExclusive.gsReset], melodyChannels: [9], drumChannel: nil))

    static let gsBadChecksum = CompatibilityFeature(
        "gs-bad-checksum", "a GS message with a wrong checksum is ignored, as a Sound Canvas ignores it",
        feature: Arrangement(
            setUp: [SystemExclusive.gsReset, SystemExclusive.gsRhythmPart(channel: 10, isDrum: true, wrongChecksum: true)],
            drumChannel: 10),
        reference: Arrangement(setUp: [SystemExclusive.gsReset], drumChannel: 10),
        wrong: plain)

    static let gsMasterKeyShift = CompatibilityFeature(
        "gs-master-key-shift", "GS master key shift +12 moves the melody and bass an octave up, not the drums",
        feature: Arrangement(setUp: [SystemExclusive.gsReset, SystemExclusive.gs([0x40, 0x00, 0x05], [0x40 + 12])], pitchShift: -12),
        reference: plain,
        wrong: Arrangement(setUp: [SystemExclusive.gsReset], pitchShift: -12))

    static let gsPartLevel = CompatibilityFeature(
        "gs-part-level", "GS part level turns the melody down as controller 7 does",
        feature: Arrangement(setUp: [SystemExclusive.gsReset, SystemExclusive.gs([0x40, 0x11, 0x19], [20])], bassChannel: nil, drumChannel: nil),
        reference: Arrangement(setUp: [.controlChange(channel: 0, controller: 7, value: 20)], bassChannel: nil, drumChannel: nil),
        wrong: Arrangement(bassChannel: nil, drumChannel: nil))

    static let gsReceiveChannel = CompatibilityFeature(
        "gs-receive-channel", "GS receive channel: part 2 (strings) plays what channel 1 (piano) plays",
        feature: Arrangement(
            setUp: [
                .programChange(channel: 1, program: 48), SystemExclusive.gsReset, .programChange(channel: 0, program: 0),
                .programChange(channel: 1, program: 48), SystemExclusive.gs([0x40, 0x12, 0x02], [0x00]),
            ],
            bassChannel: nil, drumChannel: nil),
        reference: Arrangement(setUp: [.programChange(channel: 1, program: 48)], melodyChannels: [0, 1], bassChannel: nil, drumChannel: nil),
        wrong: Arrangement(setUp: [.programChange(channel: 1, program: 48)], bassChannel: nil, drumChannel: nil))

    static let gsResetRestores = CompatibilityFeature(
        "gs-reset-restores", "a GS reset half-way turns channel 11 back from drums to a piano",
        feature: Arrangement(
            setUp: [SystemExclusive.gsReset, SystemExclusive.gsRhythmPart(channel: 10, isDrum: true)], drumChannel: 10,
            turn: (
                [SystemExclusive.gsReset],
                {
                    $0.drumChannel = nil
                    $0.melodyChannels = [0, 10]
                }
            )),
        reference: Arrangement(
            turn: (
                [],
                {
                    $0.drumChannel = nil
                    $0.melodyChannels = [0, 10]
                }
            )),
        wrong: Arrangement(
            setUp: [SystemExclusive.gsReset, SystemExclusive.gsRhythmPart(channel: 10, isDrum: true)], drumChannel: 10,
            turn: (
                [],
                {
                    $0.drumChannel = nil
                    $0.melodyChannels = [0, 10]
                }
            )))

    static let xgDrumKit = CompatibilityFeature(
        "xg-drum-kit", "XG bank 127 makes channel 1 a drum kit",
        feature: Arrangement(
            setUp: [SystemExclusive.xgOn, .controlChange(channel: 0, controller: 0, value: 127), .programChange(channel: 0, program: 0)],
            melodyChannels: [2], drumChannel: 0),
        reference: Arrangement(melodyChannels: [2]),
        wrong: Arrangement(setUp: [SystemExclusive.xgOn], melodyChannels: [2], drumChannel: 0))

    static let xgPartMode = CompatibilityFeature(
        "xg-part-mode", "XG part mode DRUM makes channel 1 a drum part",
        feature: Arrangement(setUp: [SystemExclusive.xgOn, SystemExclusive.xg([0x08, 0x00, 0x07], [0x01])], melodyChannels: [2], drumChannel: 0),
        reference: Arrangement(melodyChannels: [2]),
        wrong: Arrangement(setUp: [SystemExclusive.xgOn], melodyChannels: [2], drumChannel: 0))

    static let xgSFXKit = CompatibilityFeature(
        "xg-sfx-kit", "XG bank 126 plays the SFX kit (FluidR3_GS's, drum program 57)",
        feature: Arrangement(
            setUp: [SystemExclusive.xgOn, .controlChange(channel: 0, controller: 0, value: 126), .programChange(channel: 0, program: 0)],
            melodyChannels: [2], drumChannel: 0, drumNotes: (52, 60, 70)),
        reference: Arrangement(
            setUp: [SystemExclusive.gsReset, .programChange(channel: 9, program: 56)], melodyChannels: [2], drumNotes: (52, 60, 70)),
        wrong: Arrangement(setUp: [SystemExclusive.xgOn], melodyChannels: [2], drumChannel: 9, drumNotes: (52, 60, 70)),
        soundFonts: .rolandStack)

    static let xgDetectedFromBanks = CompatibilityFeature(
        "xg-detected-from-banks", "a song with XG drum banks but no XG On is read as XG",
        feature: Arrangement(
            setUp: [.controlChange(channel: 0, controller: 0, value: 127), .programChange(channel: 0, program: 0)],
            melodyChannels: [2], drumChannel: 0),
        reference: Arrangement(melodyChannels: [2]),
        wrong: Arrangement(melodyChannels: [2], drumChannel: 0))

    static let gm2RhythmBank = CompatibilityFeature(
        "gm2-rhythm-bank", "GM2 bank 120 makes channel 1 a rhythm channel",
        feature: Arrangement(
            setUp: [SystemExclusive.gm2On, .controlChange(channel: 0, controller: 0, value: 120), .programChange(channel: 0, program: 0)],
            melodyChannels: [2], drumChannel: 0),
        reference: Arrangement(melodyChannels: [2]),
        wrong: Arrangement(setUp: [SystemExclusive.gm2On], melodyChannels: [2], drumChannel: 0))

    static let gm2CoarseTuning = CompatibilityFeature(
        "gm2-master-coarse-tuning", "GM2 master coarse tuning +12 moves the melody and bass an octave up",
        feature: Arrangement(setUp: [SystemExclusive.gm2On, SystemExclusive.masterCoarseTuning(12)], pitchShift: -12),
        reference: plain,
        wrong: Arrangement(setUp: [SystemExclusive.gm2On], pitchShift: -12))

    static let capitalTone = CompatibilityFeature(
        "capital-tone", "a variation no SoundFont has plays its capital tone (the same program in bank 0), not silence",
        feature: Arrangement(
            setUp: [.controlChange(channel: 0, controller: 0, value: 99), .programChange(channel: 0, program: 0)], bassChannel: nil),
        reference: Arrangement(bassChannel: nil),
        wrong: Arrangement(melodyChannels: [], bassChannel: nil))
}
