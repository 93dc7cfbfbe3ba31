/// What a listener changes in a song as it plays, the song's file untouched: its key, its speed,
/// and which channels are heard.
public struct Performance: Hashable, Sendable {
    public static let transposeRange = -24...24
    public static let tempoRange = 0.25...4.0

    /// Semitones added to every key, except on drum channels, where another key is another drum.
    /// A key moved off the keyboard (below 0 or above 127) is not played.
    public var transpose = 0
    /// How much faster than written the song plays: its tempo map scaled, its pitches untouched.
    public var tempo = 1.0
    /// Channels not heard.
    public var muted = ChannelSet()
    /// When any, the only channels heard (less those muted).
    public var soloed = ChannelSet()

    public init(transpose: Int = 0, tempo: Double = 1, muted: ChannelSet = ChannelSet(), soloed: ChannelSet = ChannelSet()) {
        self.transpose = transpose
        self.tempo = tempo
        self.muted = muted
        self.soloed = soloed
    }

    /// The channels heard.
    public var audible: ChannelSet {
        ChannelSet(bits: (soloed.isEmpty ? 0xFFFF : soloed.bits) & ~muted.bits)
    }

    /// The song as written.
    public var isAsWritten: Bool { self == Performance() }

    /// `transpose` and `tempo` moved by a step and kept in their ranges: a semitone, and 5 % of
    /// the written tempo.
    public mutating func transpose(by semitones: Int) {
        transpose = min(max(transpose + semitones, Self.transposeRange.lowerBound), Self.transposeRange.upperBound)
    }

    public mutating func changeTempo(bySteps steps: Int) {
        let stepped = ((tempo * 20).rounded() + Double(steps)) / 20
        tempo = min(max(stepped, Self.tempoRange.lowerBound), Self.tempoRange.upperBound)
    }
}
