import Synthesis
import Testing

@testable import Playback
@testable import TerminalUI

/// The channel panel: each channel's instrument, meter and state, one selected.
@Suite struct ChannelPanelTests {
    static func snapshot(muted: [Int] = [], soloed: [Int] = [], velocity: UInt8 = 127) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot(
            item: nil, place: 0, queueLength: 1, heardSeconds: 0, heardTick: 0, durationSeconds: 1, isPaused: false,
            tempoBPM: nil, hasEnded: false, underruns: 0, pressedKeys: [], noteRange: nil)
        snapshot.channels = (1...16).map {
            ChannelSnapshot(number: $0, instrument: $0 == 10 ? "Standard" : "Piano \($0)", isDrum: $0 == 10, velocity: $0 == 1 ? velocity : 0)
        }
        snapshot.performance = Performance(muted: ChannelSet(numbers: muted)!, soloed: ChannelSet(numbers: soloed)!)
        return snapshot
    }

    @Test func rowsShowInstrumentMeterAndState() {
        var panel = ChannelPanel()
        let rows = panel.rows(for: Self.snapshot(muted: [2], soloed: [1, 10]), width: 60)
        #expect(rows.count == 16)
        #expect(rows[0] == "▸ 1 solo ▮▮▮▮▮▮▮▮▮▮ Piano 1")
        #expect(rows[1] == "  2 mute ·········· Piano 2")
        #expect(rows[2] == "  3  -   ·········· Piano 3")
        #expect(rows[9] == " 10 solo ·········· drums: Standard")
    }

    @Test func theMeterFallsWhenNothingIsStruck() {
        var panel = ChannelPanel()
        _ = panel.rows(for: Self.snapshot(), width: 60)
        let later = panel.rows(for: Self.snapshot(velocity: 0), width: 60)
        #expect(later[0] == "▸ 1      ▮▮▮▮▮▮▮▮·· Piano 1")
    }

    @Test func selectionWrapsAround() {
        var panel = ChannelPanel()
        panel.select(16)
        #expect(panel.selected == 0)
        panel.select(-1)
        #expect(panel.selected == 15)
    }
}
