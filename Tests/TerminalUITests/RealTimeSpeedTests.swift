import Testing

@testable import TerminalUI

/// The speed a summary line gives: whole above 10×, a tenth below, never 0× for slow work.
struct RealTimeSpeedTests {
    @Test(arguments: [
        (73.4, 1.0, "73× real time"), (1.2, 2.6, "0.5× real time"), (5, 1, "5× real time"), (9.96, 1, "10× real time"),
        (2.25, 1, "2.3× real time"), (0.01, 1, "0× real time"),
    ])
    func text(audio: Double, elapsed: Double, expected: String) {
        #expect(RealTimeSpeed.text(audioSeconds: audio, elapsedSeconds: elapsed) == expected)
    }
}
