import SMF

/// Ticks per quarter note in every demo file.
let ticksPerQuarter = 480

/// The bars of a piece: its time signatures and where they change.
///
/// Bars are numbered from 1, as in a score; a pickup (anacrusis) is a bar of its own
/// with its own short time signature, as MIDI files write it.
struct Meter {
    struct Change {
        /// The first bar in this time signature.
        var bar: Int
        var tick: Int
        var numerator: Int
        var denominator: Int

        /// Ticks in one bar.
        var barTicks: Int { numerator * beatTicks }
        /// Ticks in one beat, counted in the denominator's note value (an eighth in 6/8).
        var beatTicks: Int { 4 * ticksPerQuarter / denominator }
    }

    private(set) var changes: [Change]

    init(_ numerator: Int, _ denominator: Int) {
        changes = [Change(bar: 1, tick: 0, numerator: numerator, denominator: denominator)]
    }

    /// Changes the time signature from the start of `bar` on.
    mutating func change(to numerator: Int, _ denominator: Int, atBar bar: Int) {
        precondition(bar > changes[changes.count - 1].bar, "time signature changes must go forward")
        changes.append(Change(bar: bar, tick: tick(bar: bar), numerator: numerator, denominator: denominator))
    }

    private func change(inForceAtBar bar: Int) -> Change {
        changes.last { $0.bar <= bar }!
    }

    private func change(inForceAtTick tick: Int) -> Change {
        changes.last { $0.tick <= tick }!
    }

    /// The tick at which a bar (numbered from 1) starts.
    func tick(bar: Int) -> Int {
        precondition(bar >= 1, "bars are numbered from 1")
        let change = change(inForceAtBar: bar)
        return change.tick + (bar - change.bar) * change.barTicks
    }

    /// The tick of a beat (numbered from 1, in the denominator's note value) of a bar.
    func tick(bar: Int, beat: Int) -> Int {
        tick(bar: bar) + (beat - 1) * change(inForceAtBar: bar).beatTicks
    }

    /// Whether a bar starts at `tick`.
    func isBarline(_ tick: Int) -> Bool {
        let change = change(inForceAtTick: tick)
        return (tick - change.tick) % change.barTicks == 0
    }

    /// The time signature meta event of a change. The metronome clicks on the beat, or on
    /// the dotted quarter in compound time (6/8, 9/8, 12/8).
    static func metaEvent(_ change: Change) -> MetaEvent {
        var power: UInt8 = 0
        while 1 << power < change.denominator { power += 1 }
        let isCompound = change.denominator == 8 && change.numerator % 3 == 0 && change.numerator > 3
        let clocksPerClick = isCompound ? 36 : 96 / change.denominator
        return .timeSignature(
            numerator: UInt8(change.numerator), denominatorPower: power,
            clocksPerMetronomeClick: UInt8(clocksPerClick), thirtySecondNotesPerQuarter: 8)
    }
}
