/// How a MIDI file starts, whatever its name: with `MThd`, as a RIFF file of type `RMID`, as a
/// MIDI 2.0 Clip File (`SMF2CLIP`), a MUS score (`MUS` and 1A), an XMI song (`FORM` `XDIR` or
/// `XMID`), an HMP file (`HMIMIDIP`) or a Recomposer song (`RCM-PC98V2.0`, `COME ON MUSIC`); and
/// what is said of a file that does not, in the one wording every command uses.
public enum MIDIFileSignature {
    /// The first bytes to look at.
    public static let length = 12

    /// Whether `head`, a file's first ``length`` bytes (or all of a shorter file), starts a MIDI file.
    public static func matches(_ head: some Collection<UInt8>) -> Bool {
        let head = Array(head.prefix(length))
        guard head.count >= 4 else { return false }
        if head[0..<4].elementsEqual("MThd".utf8) || MIDIClipReader.isClip(head) || MUSReader.isMUS(head) || XMIReader.isXMI(head)
            || HMPReader.isHMP(head) || RecomposerReader.isRecomposer(head)
        {
            return true
        }
        return isRMID(head)
    }

    /// Whether `head`, a file's first ``length`` bytes, starts an RMID file (a RIFF file of type
    /// `RMID`): the only kind with INFO texts, whatever its name.
    public static func isRMID(_ head: some Collection<UInt8>) -> Bool {
        let head = Array(head.prefix(length))
        return head.count == length && head[0..<4].elementsEqual("RIFF".utf8) && head[8..<12].elementsEqual("RMID".utf8)
    }

    /// What is wrong with a file that does not start so.
    public static let mismatch =
        "not a MIDI file (it starts with none of MThd, a RIFF RMID header, SMF2CLIP, MUS, an XMI FORM, HMIMIDIP, HMI-MIDISONG and a Recomposer header)"
}
