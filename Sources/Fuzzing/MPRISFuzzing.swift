import Files
import MediaPlayerService
import SystemPackage

/// The MPRIS calls a client can make: the first byte picks a method or a writable property, the
/// rest are its arguments (``ByteArguments``). Each is refused with an error that says why, or
/// decoded into a request that keeps the promises the play loop relies on: a rate in range, a
/// file that is there and is MIDI. Every string given is tried as a `file://` URI too: a path
/// decoded from one is encoded back to a URI that decodes to it again.
enum MPRISFuzzing {
    static func test(_ bytes: [UInt8]) throws(FuzzFailure) {
        guard let first = bytes.first else { return }
        let call = MediaPlayerCall.all[Int(first) % MediaPlayerCall.all.count]
        let request: MediaPlayerRequest?
        do throws(MediaPlayerCallError) {
            request = try call.request(arguments: ByteArguments(bytes.dropFirst()))
        } catch {
            guard !error.message.isEmpty, error.name.hasPrefix("org.mpris.MediaPlayer2.smfplay.Error.") else {
                throw .brokenPromise("\(call): a refusal without a name or a message: \(error)")
            }
            return
        }
        switch request {
        case .setRate(let rate):
            guard MediaPlayerState.rateRange.contains(rate) else { throw .brokenPromise("\(call): a rate of \(rate) taken") }
        case .open(let path):
            guard path.isAbsolute, FileStamp(ofFileAt: path) != nil else { throw .brokenPromise("\(call): \(path) taken, which is not there") }
        default:
            break
        }
        let strings = ByteArguments(bytes.dropFirst())
        while let text = try? strings.string() {
            guard let path = FilePath(fileURI: text) else { continue }
            guard FilePath(fileURI: path.fileURI) == path else {
                throw .brokenPromise("\(text) names \(path), whose URI \(path.fileURI) names another path")
            }
        }
    }
}
