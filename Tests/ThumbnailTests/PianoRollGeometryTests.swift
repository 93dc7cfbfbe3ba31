import Testing
import Thumbnails

/// Where the piano roll puts time and pitch, apart from any pixel.
@Suite("Piano roll geometry")
struct PianoRollGeometryTests {
    @Test func showsTheSongsKeysWithAMarginOfTwoKeys() {
        let geometry = PianoRollGeometry(pitchRange: 48...72, duration: 10, width: 100, height: 58)
        #expect(geometry.pitches == 46...74)
        #expect(PianoRollGeometry(pitchRange: 0...127, duration: 1, width: 10, height: 10).pitches == 0...127)
        #expect(PianoRollGeometry(pitchRange: 1...126, duration: 1, width: 10, height: 10).pitches == 0...127)
        #expect(PianoRollGeometry(pitchRange: nil, duration: 0, width: 10, height: 10).pitches == PianoRollGeometry.emptySongPitches)
    }

    @Test func higherKeysAreHigherUpAndTheKeysFillTheHeight() {
        let geometry = PianoRollGeometry(pitchRange: 48...72, duration: 10, width: 100, height: 100)
        var nextRow = 0
        for pitch in geometry.pitches.reversed() {
            let rows = geometry.rows(ofPitch: pitch)
            #expect(rows.lowerBound == nextRow, "key \(pitch) starts right below the key above it")
            #expect(rows.count >= 3 && rows.count <= 4, "key \(pitch): \(rows)")
            nextRow = rows.upperBound
        }
        #expect(nextRow == 100)
        #expect(geometry.rows(ofPitch: 45).isEmpty && geometry.rows(ofPitch: 75).isEmpty, "keys outside the range are not shown")
    }

    @Test func everyKeyGetsARowEvenWhenThereAreMoreKeysThanRows() {
        let geometry = PianoRollGeometry(pitchRange: 0...127, duration: 10, width: 100, height: 20)
        for pitch in geometry.pitches {
            let rows = geometry.rows(ofPitch: pitch)
            #expect(rows.count == 1 && rows.lowerBound >= 0 && rows.upperBound <= 20, "key \(pitch): \(rows)")
        }
        #expect(geometry.rows(ofPitch: 127) == 0..<1)
        #expect(geometry.rows(ofPitch: 0) == 19..<20)
    }

    @Test func timeRunsAcrossTheWidthFromTheStartToTheLastNotesEnd() {
        let geometry = PianoRollGeometry(pitchRange: 60...60, duration: 4, width: 200, height: 10)
        #expect(geometry.x(atSeconds: 0) == 0)
        #expect(geometry.x(atSeconds: 1) == 50)
        #expect(geometry.x(atSeconds: 4) == 200)
        #expect(geometry.x(atSeconds: 5) == 200, "nothing is drawn past the edge")
        #expect(geometry.columns(fromSeconds: 1, toSeconds: 2) == 50..<100)
        #expect(geometry.columns(fromSeconds: 3, toSeconds: 4) == 150..<200)
    }

    @Test func theShortestNoteCoversAColumn() {
        let geometry = PianoRollGeometry(pitchRange: 60...60, duration: 100, width: 100, height: 10)
        #expect(geometry.columns(fromSeconds: 10, toSeconds: 10.001) == 10..<11)
        #expect(geometry.columns(fromSeconds: 100, toSeconds: 100) == 99..<100, "a note at the very end still shows")
        let instant = PianoRollGeometry(pitchRange: 60...60, duration: 0, width: 100, height: 10)
        #expect(instant.columns(fromSeconds: 0, toSeconds: 0) == 0..<1)
    }
}
