import AudioOutput
import CompatibilitySongs
import Files
import Foundation
import SMF
import SoundComparison
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// bench/compat.sh's helper:
///   smfplay-compat write DIR                        the songs: NAME.feature.mid, NAME.reference.mid, NAME.wrong.mid,
///                                                   and DIR/features.tsv (name, SoundFonts, summary)
///   smfplay-compat compare FEATURE.wav REFERENCE.wav WRONG.wav
///                                                   "pass" (like the reference, unlike the wrong one), "same" (like
///                                                   both: the test shows nothing for this player) or "fail", with the
///                                                   similarities to the reference and to the wrong one and the level
///                                                   difference; exit status 0 for a pass, else 1
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("smfplay-compat: \(message)\n".utf8))
    exit(2)
}

func samples(_ path: String) -> [Float] {
    do {
        let reader = try AudioFileReader(path: FilePath(path))
        guard reader.channels == 2, reader.sampleRate == 44_100 else {
            fail("\(path): \(reader.channels) channels at \(reader.sampleRate) Hz, not stereo at 44100 Hz")
        }
        return try reader.readAll()
    } catch {
        fail("\(error)")
    }
}

switch arguments.first {
case "write" where arguments.count == 2:
    let folder = FilePath(arguments[1])
    do {
        try folder.makeFolders(permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        var manifest = ""
        for feature in CompatibilityFeature.all {
            for (kind, file) in [("feature", feature.feature), ("reference", feature.reference), ("wrong", feature.wrong)] {
                try AtomicWrite.write(SMFWriter().encode(file), to: folder.appending("\(feature.name).\(kind).mid"))
            }
            manifest += "\(feature.name)\t\(feature.soundFonts.rawValue)\t\(feature.summary)\n"
        }
        try AtomicWrite.write(Array(manifest.utf8), to: folder.appending("features.tsv"))
    } catch {
        fail("\(error)")
    }
case "compare" where arguments.count == 4:
    let played = samples(arguments[1])
    let alike = SoundComparison(candidate: played, reference: samples(arguments[2]), sampleRate: 44_100)
    let unlike = SoundComparison(candidate: played, reference: samples(arguments[3]), sampleRate: 44_100)
    let isAlike = alike.mismatches().isEmpty
    let isUnlike = !unlike.mismatches().isEmpty
    // "same": the player plays the wrong version as it plays the reference, and shows nothing either way.
    let verdict = isAlike && isUnlike ? "pass" : isAlike ? "same" : "fail"
    print(String(format: "%@ %.3f %.3f %+.2f", verdict, alike.spectralSimilarity, unlike.spectralSimilarity, alike.levelDifference))
    exit(verdict == "pass" ? 0 : 1)
default:
    fail("usage: smfplay-compat write DIR | smfplay-compat compare FEATURE.wav REFERENCE.wav WRONG.wav")
}
