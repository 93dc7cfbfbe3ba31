import Foundation
import Library
import Playback
import SMF
import Synchronization
import SystemPackage
import Thumbnails

/// The desktop's media keys, sound applet, `playerctl` and KDE Connect, through MPRIS: what they
/// ask of the player is done here, in the play loop (see `MediaPlayerService` for the threads),
/// and what the player does is published to them after every update.
public final class MediaKeys {
    /// What the requests taken in one go of the loop did.
    public enum Outcome {
        case none
        /// The place in the queue or in the song changed (what the resume state records at once).
        case placeChanged
        /// A client asked smfplay to quit.
        case quit
    }

    private let service: MediaPlayerService
    private let thumbnails: ThumbnailCache
    /// How a song's title is read (its text encoding).
    private let textDecoding: (MIDIFile) -> TextDecoding
    /// The song described last, by its snapshot's `start`.
    private var track: MediaPlayerTrack?
    /// Stopped by a client: paused at the song's start, shown as Stopped until it plays again.
    private var isStopped = false
    private let madeThumbnails = MadeThumbnails()

    public init(service: MediaPlayerService, thumbnails: ThumbnailCache, textDecoding: @escaping (MIDIFile) -> TextDecoding) {
        self.service = service
        self.thumbnails = thumbnails
        self.textDecoding = textDecoding
    }

    /// Does what clients asked since the last call.
    public func handleRequests(_ player: Player) -> Outcome {
        var outcome = Outcome.none
        for request in service.takeRequests() {
            let snapshot = player.update()
            // After the queue's end only a new file (or quitting) means anything.
            if snapshot.hasEnded, request != .quit, !request.isOpen { continue }
            switch request {
            case .play:
                if snapshot.isPaused { player.togglePause() }
            case .pause:
                if !snapshot.isPaused { player.togglePause() }
            case .playPause:
                player.togglePause()
            case .stop:
                if !snapshot.isPaused { player.togglePause() }
                player.restart()
                isStopped = true
            case .next:
                player.next()
            case .previous:
                player.previous()
            case .seek(let offset):
                let target = snapshot.heardSeconds + Double(offset) / 1e6
                // The specification: past the song's end is the next song; before its start, its start.
                if target >= snapshot.durationSeconds { player.next() } else { player.seek(toSeconds: max(0, target)) }
            case .setPosition(let number, let microseconds):
                let seconds = Double(microseconds) / 1e6
                guard number == snapshot.start, seconds >= 0, seconds <= snapshot.durationSeconds else { continue }
                player.seek(toSeconds: seconds)
            case .open(let file):
                var queue = player.queue
                queue.append([.file(file)])
                queue.move(toPlace: queue.order.count - 1)
                player.play(queue)
            case .setLoopStatus(let status):
                player.repeatMode = Self.repeatMode(status)
            case .setShuffle(let shuffled):
                player.isShuffled = shuffled
            case .setRate(let rate):
                var performance = player.performance
                performance.tempo = rate
                player.performance = performance
            case .quit:
                return .quit
            }
            outcome = .placeChanged
        }
        return outcome
    }

    /// Tells clients what the player does now.
    public func publish(_ snapshot: PlayerSnapshot, player: Player) {
        if !snapshot.isPaused { isStopped = false }
        let status: MediaPlayerState.PlaybackStatus = snapshot.hasEnded || isStopped ? .stopped : snapshot.isPaused ? .paused : .playing
        service.publish(
            MediaPlayerState(
                status: status, loopStatus: Self.loopStatus(player.repeatMode), shuffle: player.isShuffled, rate: snapshot.performance.tempo,
                track: snapshot.hasEnded ? nil : currentTrack(snapshot, player: player),
                positionMicroseconds: Int64((snapshot.heardSeconds * 1e6).rounded()),
                canGoNext: snapshot.place + 1 < snapshot.queueLength || player.repeatMode == .all))
    }

    /// The song of the snapshot, described once when it starts; its thumbnail is added when made.
    private func currentTrack(_ snapshot: PlayerSnapshot, player: Player) -> MediaPlayerTrack? {
        guard let item = snapshot.item else { return nil }
        if track?.number != snapshot.start {
            let file = player.song(generation: snapshot.start)?.file
            track = MediaPlayerTrack(
                number: snapshot.start, item: item, songTitle: file.flatMap(title(of:)), songInfo: file.flatMap(info(of:)),
                durationSeconds: snapshot.durationSeconds)
            // A song from standard input has no file to draw, nor to copy a cover from.
            if let path = track?.file ?? nil { makeThumbnail(of: path, cover: file?.rmidInfo?.picture) }
        }
        if let file = track?.file ?? nil, track?.art == nil, case .made(let thumbnail) = madeThumbnails[file] { track?.art = thumbnail }
        return track
    }

    /// The song's title (``MIDIFile/titleText(decoding:)``, as `smfplay info` has it), if it has one.
    private func title(of file: MIDIFile) -> String? {
        file.titleText(decoding: textDecoding(file))
    }

    /// An RMID file's INFO texts, read as `smfplay info` reads them.
    private func info(of file: MIDIFile) -> RMIDInfoSummary? {
        file.rmidInfo.map { RMIDInfoSummary($0, decoding: $0.textDecoding(songDecoding: textDecoding(file))) }
    }

    /// The art: an RMID file's own cover (PNG or JPEG), copied out of it, else its piano roll,
    /// from the thumbnail cache or drawn now; on a thread of its own: a large file takes a fifth
    /// of a second to draw, which the play loop must not wait for.
    private func makeThumbnail(of file: FilePath, cover: RMIDInfo.Picture?) {
        guard madeThumbnails[file] == nil else { return }
        madeThumbnails[file] = .making
        let (thumbnails, made) = (thumbnails, madeThumbnails)
        Thread {
            let copied = cover.flatMap { try? thumbnails.covers.cover(of: file, picture: $0) }
            made[file] = .made(copied ?? (try? thumbnails.thumbnail(of: file)))
        }.start()
    }

    static func loopStatus(_ mode: PlayQueue.RepeatMode) -> MediaPlayerState.LoopStatus {
        switch mode {
        case .off: .none
        case .one: .track
        case .all: .playlist
        }
    }

    static func repeatMode(_ status: MediaPlayerState.LoopStatus) -> PlayQueue.RepeatMode {
        switch status {
        case .none: .off
        case .track: .one
        case .playlist: .all
        }
    }
}

/// The thumbnails asked for, by file: shared with the threads that make them.
private final class MadeThumbnails: Sendable {
    enum Thumbnail: Sendable {
        case making
        /// nil: it could not be made (the track has no art).
        case made(FilePath?)
    }

    private let thumbnails = Mutex<[FilePath: Thumbnail]>([:])

    subscript(file: FilePath) -> Thumbnail? {
        get { thumbnails.withLock { $0[file] } }
        set { thumbnails.withLock { $0[file] = newValue } }
    }
}

extension MediaPlayerRequest {
    fileprivate var isOpen: Bool {
        if case .open = self { true } else { false }
    }
}
