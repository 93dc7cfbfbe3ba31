import SMF
import Testing

@testable import MediaPlayerService

/// The D-Bus errors a refused call gets: a name that says the kind, a message for a person.
@Suite("MediaPlayerCallError")
struct MediaPlayerCallErrorTests {
    @Test(
        "each refusal's error name and message",
        arguments: [
            (MediaPlayerCallError.notAFileURI("http://a/b.mid"), "NotAFileURI", "http://a/b.mid: smfplay opens local files only (file:///…)"),
            (.missingFile("/m/gone.mid"), "NoSuchFile", "/m/gone.mid: no such file"),
            (.notAMIDIFile("/m/notes.mid"), "NotAMIDIFile", "/m/notes.mid: " + MIDIFileSignature.mismatch),
            (.rateOutOfRange(5), "RateOutOfRange", "a rate of 5.0 is out of range: smfplay plays from 0.25 to 4 times as fast (0 pauses)"),
            (.unknownLoopStatus("All"), "UnknownLoopStatus", "All is not a loop status: None, Track or Playlist"),
            (.unreadableArguments("Invalid argument"), "UnreadableArguments", "the arguments could not be read: Invalid argument"),
        ])
    func nameAndMessage(error: MediaPlayerCallError, kind: String, message: String) {
        #expect(error.name == "org.mpris.MediaPlayer2.smfplay.Error." + kind)
        #expect(error.message == message)
    }
}
