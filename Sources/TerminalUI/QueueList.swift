import Playback

/// The queue in the play view (`l`): every file in playing order, numbered, named as the play
/// view names the song playing, that one marked `▶`; one selected (reverse video), which Enter
/// plays. The list scrolls to keep the selection in sight, as cmus's and mpv's playlists do.
struct QueueList {
    /// The selected place in the queue's playing order.
    private(set) var selected: Int
    /// The first place shown.
    private var top = 0

    init(selected: Int) {
        self.selected = selected
    }

    /// Moves the selection by `offset` places, within the queue's `count`.
    mutating func move(by offset: Int, count: Int) {
        selected = max(0, min(count - 1, selected + offset))
    }

    /// The list's rows, `height` at most, each at most `width` columns: a heading with the keys
    /// that fit, then the files around the selection.
    mutating func rows(for queue: PlayQueue, playing: Int, width: Int, height: Int) -> [String] {
        let count = queue.order.count
        selected = max(0, min(selected, count - 1))
        let heading = "queue, \(count) file\(count == 1 ? "" : "s"): "
        var rows = [heading + ViewKeys.queueListOnly.hints(width: width - DisplayWidth.columns(of: heading))]
        let shown = max(height - 1, 1)
        if selected < top { top = selected }
        if selected >= top + shown { top = selected - shown + 1 }
        top = max(0, min(top, max(count - shown, 0)))
        let numberWidth = String(count).count
        for place in top..<min(count, top + shown) {
            let number = String(place + 1)
            let marker = place == playing ? "▶ " : "  "
            let line = DisplayWidth.fitting(
                marker + String(repeating: " ", count: numberWidth - number.count) + number + ". "
                    + PlayView.fileName(of: queue.items[queue.order[place]]), width: width)
            rows.append(place == selected ? "\u{1B}[7m" + line + "\u{1B}[0m" : line)
        }
        return Array(rows.prefix(max(height, 1)))
    }
}
