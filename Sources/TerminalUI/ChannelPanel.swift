import Playback
import Synthesis

/// The channel panel of the play view (`c`): for each of the 16 channels its instrument, a meter
/// of how hard it plays, and whether it is muted or soloed; one channel is selected, for `m` and `s`.
struct ChannelPanel {
    static let rowCount = 16
    static let meterWidth = 10
    /// The channel the keys act on, 0–15.
    private(set) var selected = 0
    /// Each channel's meter, 0–1: a strike sets it, and it falls by a fifth every frame.
    private var levels = [Double](repeating: 0, count: 16)

    mutating func select(_ channel: Int) { selected = (channel % 16 + 16) % 16 }

    mutating func rows(for snapshot: PlayerSnapshot, width: Int) -> [String] {
        for channel in snapshot.channels where (1...16).contains(channel.number) {
            let index = channel.number - 1
            levels[index] = max(Double(channel.velocity) / 127, levels[index] * 0.8)
        }
        let performance = snapshot.performance
        let audible = performance.audible
        return (0..<16).map { index in
            let channel = snapshot.channels.first { $0.number == index + 1 }
            let state =
                performance.muted.contains(index) ? "mute" : performance.soloed.contains(index) ? "solo" : audible.contains(index) ? "    " : " -  "
            let filled = Int((levels[index] * Double(Self.meterWidth)).rounded())
            let meter = String(repeating: "▮", count: filled) + String(repeating: "·", count: Self.meterWidth - filled)
            let number = index + 1 < 10 ? " \(index + 1)" : "\(index + 1)"
            let marker = index == selected ? "▸" : " "
            let kind = channel?.isDrum == true ? "drums: " : ""
            let name = channel?.instrument.map { kind + $0 } ?? "(not used)"
            let head = "\(marker)\(number) \(state) \(meter) "
            return DisplayWidth.fitting(head + name, width: width)
        }
    }
}
