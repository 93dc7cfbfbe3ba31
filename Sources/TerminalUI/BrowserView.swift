import Library
import LibraryIndex
import SystemPackage

/// The library browser on the whole terminal: the breadcrumb from the library's root, the filter,
/// the listing (the selected line in reverse video, the last played file marked), a status line
/// and the keys (`?` shows them all, on a page of their own). Every line is cut to the terminal's
/// width by display columns, so wide (CJK) characters, combining marks and emoji never overflow or
/// get split; control characters in names are shown as `�`, never sent to the terminal.
struct BrowserView {
    /// The listing's first line on screen.
    private var top = 0
    private var lastDrawn = ""

    /// The lines of the screen, each at most `columns` wide.
    mutating func lines(
        for browser: LibraryBrowser, details: (FilePath) -> FileDetails.Lookup?, lastPlayed: FilePath?,
        isEditingFilter: Bool, showsHelp: Bool = false, status: String, columns: Int, rows: Int
    ) -> [String] {
        let width = max(columns, 1)
        let keys = Self.keys(for: browser)
        if showsHelp { return Array(keys.helpPage(width: width).prefix(max(rows, 1))) }
        var lines = [Self.breadcrumb(for: browser, width: width)]
        let typed = browser.search ?? browser.filter
        if isEditingFilter || !typed.isEmpty {
            let found = browser.search.map { _ in "   \(browser.entries.count) found in the library" } ?? ""
            lines.append(DisplayWidth.fitting("/" + typed + (isEditingFilter ? "▏" : "") + found, width: width))
        } else {
            lines.append(String(repeating: "─", count: width))
        }
        let height = max(rows - 4, 1)
        let visible = browser.visibleEntries
        if let problem = browser.problem {
            lines.append(DisplayWidth.fitting("Cannot open this folder: \(problem)", width: width))
        } else if visible.isEmpty {
            lines.append(
                DisplayWidth.fitting(
                    typed.isEmpty ? "No MIDI files or folders here." : "Nothing matches “\(typed)”.",
                    width: width))
        }
        if browser.selection < top { top = browser.selection }
        if browser.selection >= top + height { top = browser.selection - height + 1 }
        top = max(0, min(top, max(visible.count - height, 0)))
        let shown = Array(visible.indices.dropFirst(top).prefix(height - (lines.count - 2)))
        let lookups = shown.map { visible[$0].kind == .midiFile ? details(visible[$0].path) : nil }
        // Lengths and track counts right-aligned in columns as wide as the widest shown: they line up
        // from file to file, and take no more room than they need.
        var durationWidth = 0
        var trackWidth = 0
        for case .ready(let seconds, let trackCount) in lookups {
            durationWidth = max(durationWidth, formatDuration(seconds).count)
            trackWidth = max(trackWidth, String(trackCount).count)
        }
        for (index, lookup) in zip(shown, lookups) {
            let entry = visible[index]
            let marker = entry.path == lastPlayed ? "▶ " : "  "
            let right =
                switch lookup {
                case .ready(let seconds, let trackCount):
                    "  " + Self.padded(formatDuration(seconds), to: durationWidth) + "  " + Self.padded(String(trackCount), to: trackWidth) + " tr"
                case .pending: "  …"
                case .unreadable: "  unreadable"
                case nil: ""
                }
            let name = DisplayWidth.fitting(
                entry.kind == .folder ? entry.name + "/" : entry.name, width: max(width - 2 - DisplayWidth.columns(of: right), 1))
            let gap = String(repeating: " ", count: max(0, width - 2 - DisplayWidth.columns(of: name) - DisplayWidth.columns(of: right)))
            // Cut whole: on a screen narrower than the marker and the details, they do not fit either.
            let line = DisplayWidth.fitting(marker + name + gap + right, width: width)
            lines.append(index == browser.selection ? "\u{1B}[7m" + line + "\u{1B}[0m" : line)
        }
        while lines.count < rows - 2 { lines.append("") }
        lines.append(DisplayWidth.fitting(status, width: width))
        lines.append(keys.hintLine(width: width))
        return Array(lines.prefix(max(rows, 1)))
    }

    /// The keys of the listing shown: a folder's, or the search results'.
    static func keys(for browser: LibraryBrowser) -> ViewKeys {
        browser.search == nil ? .browser : .searchResults
    }

    /// Draws the screen, if anything on it changed.
    mutating func draw(_ lines: [String]) {
        let text = "\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J"
        guard text != lastDrawn else { return }
        lastDrawn = text
        writeToStandardOutput(text)
    }

    /// Forgets what is on the screen (another view drew over it).
    mutating func invalidate() {
        lastDrawn = ""
    }

    /// "MIDI › Chopin › Ballades", cut at the front when too long: the end says where one is.
    static func breadcrumb(for browser: LibraryBrowser, width: Int) -> String {
        let rootName = browser.root.lastComponent?.text ?? "/"
        let crumbs = [rootName] + browser.trail.map(\.text)
        let text = DisplayWidth.printable(crumbs.joined(separator: " › "))
        guard DisplayWidth.columns(of: text) > width else { return text }
        var kept = ""
        for character in text.reversed() {
            guard DisplayWidth.columns(of: kept) + DisplayWidth.columns(of: character) <= width - 1 else { break }
            kept.insert(character, at: kept.startIndex)
        }
        return "…" + kept
    }

    private static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
