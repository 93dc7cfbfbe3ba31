import Foundation
import SMF
import Synthesis

extension FileReport {
    /// The report of a file read as a person reads it in a terminal (one that could not be read
    /// is said on standard error, by `errorLine`).
    public var text: String {
        var lines = [path]
        guard let summary else { return path }
        var rows: [(String, [String])] = []
        if let title = summary.title, !title.isEmpty { rows.append(("Title", [title])) }
        if let info = summary.rmidInfo { rows += infoRows(info) }
        if let soundBank { rows.append(("Sound bank", [soundBankText(soundBank)])) }
        rows.append(("Duration", [formatDuration(summary.durationSeconds)]))
        let format = summary.kind == MIDIFile.Kind.standardMIDIFile.rawValue ? String(summary.format) : summary.kind
        rows.append(("Format", ["\(format), \(plural(summary.tracks.count, "track")), \(summary.timebase)"]))
        rows.append(("Notes", [grouped(summary.noteCount)]))
        rows.append(("Standard", ["\(summary.midiMode.mode.displayName) (\(summary.midiMode.reason))"]))
        if folderSettings != nil || folderSettingsProblems != nil {
            let set = (folderSettings ?? []).map { "\($0.key) \($0.value) (\($0.shownFile))" }.joined(separator: ", ")
            rows.append(("Folder settings", (set.isEmpty ? [] : [set]) + (folderSettingsProblems ?? [])))
        }
        if let tempo = summary.tempo { rows.append(("Tempo", [tempoText(tempo)])) }
        if !summary.timeSignatures.isEmpty {
            rows.append(("Time", [summary.timeSignatures.map { "\($0.numerator)/\($0.denominator)" }.joined(separator: ", ")]))
        }
        if !summary.keySignatures.isEmpty { rows.append(("Key", [summary.keySignatures.map(\.name).joined(separator: ", ")])) }
        rows.append(("Loop", loopLines(summary)))
        // The INFO's copyright first, then the song's own, unless they say the same.
        let copyrights = ([summary.rmidInfo?.copyright, summary.copyright].compactMap { $0 }).flatMap { $0.split(separator: "\n").map(String.init) }
        let distinct = copyrights.reduce(into: [String]()) { kept, line in if !kept.contains(line) { kept.append(line) } }
        if !distinct.isEmpty { rows.append(("Copyright", distinct)) }
        rows.append(("Tracks", summary.tracks.map(trackText)))
        let sounding = summary.channels.filter { $0.noteCount > 0 }
        if !sounding.isEmpty { rows.append(("Channels", sounding.map(channelText))) }
        if let lyrics = summary.lyrics { rows.append(("Lyrics", lyricsPreview(lyrics))) }
        if !summary.display.isEmpty { rows.append(("Display", displayLines(summary.display))) }
        if !warnings.isEmpty { rows.append(("Warnings", warnings)) }
        for (label, values) in rows {
            // A label longer than the column ("Folder settings") moves its own values along.
            let width = max(10, label.count)
            for (index, value) in values.enumerated() {
                lines.append("  " + (index == 0 ? label : "").padding(toLength: width, withPad: " ", startingAt: 0) + " " + value)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// An RMID file's INFO texts, in the order a player's tag view shows them.
    private func infoRows(_ info: RMIDInfoSummary) -> [(String, [String])] {
        let texts: [(String, String?)] = [
            ("Artist", info.artist), ("Album", info.album), ("Genre", info.genre), ("Date", info.date), ("Engineer", info.engineer),
            ("Software", info.software), ("Comment", info.comment),
        ]
        var rows = texts.compactMap { label, text in
            text.map { (label, $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) }
        }
        if let picture = info.picture {
            rows.append(("Picture", ["\(picture.format.map { $0.rawValue.uppercased() } ?? "not PNG or JPEG"), \(byteSize(picture.byteCount))"]))
        }
        return rows
    }

    /// E.g. "embedded SF2, 683 KB, 14 presets, bank offset 1 (the file's own)", "Chopin.sf2
    /// beside it, SF2, 5.7 MB, 136 presets (same name)".
    private func soundBankText(_ report: SongBankReport) -> String {
        var parts: [String] = []
        if let file = report.file { parts.append("\(file) beside it") }
        if let bank = report.summary {
            let unit = bank.kind == .dls ? "instrument" : "preset"
            let presets = bank.presetCount.map { plural($0, unit) } ?? "\(unit)s unreadable (the bank is damaged or cut short)"
            let kind = report.file == nil ? "embedded \(bank.kind.displayName)" : bank.kind.displayName
            parts += [kind, byteSize(bank.byteCount), presets]
            // A bank file is heard at its own numbers: only an embedded bank's offset says something.
            if report.file == nil { parts.append("bank offset \(bank.bankOffset)") }
        }
        if let problem = report.problem { parts.append("cannot be read: \(problem)") }
        let over = report.sidecarNotUsed.map { ", over \($0) beside it" } ?? ""
        let notUsed = report.notUsed.map { "; not used: \($0)" } ?? ""
        return parts.joined(separator: ", ") + " (\(report.reason)\(over)\(notUsed))"
    }

    private func tempoText(_ tempo: SongSummary.TempoSummary) -> String {
        guard tempo.changeCount > 0 else { return "\(bpm(tempo.initialBPM)) bpm" }
        return
            "\(bpm(tempo.initialBPM)) bpm at the start, \(bpm(tempo.minimumBPM))–\(bpm(tempo.maximumBPM)) bpm, \(plural(tempo.changeCount, "change"))"
    }

    /// What the song writes on its module's screen: the first changes with their times, the
    /// first picture drawn in half blocks (`--json` has every change, every picture).
    private func displayLines(_ changes: [SongSummary.DisplayChange]) -> [String] {
        let shown = 12
        var lines: [String] = []
        var hasDrawn = false
        for change in changes.prefix(shown) {
            let time = formatDuration(change.seconds)
            if let text = change.text {
                lines.append("\(time) \(change.module) “\(text)”")
            } else if let rows = change.picture {
                lines.append("\(time) \(change.module) picture")
                if !hasDrawn, let picture = DotPicture(lines: rows) {
                    lines += picture.halfBlockLines.map { "  ▏" + $0 + "▕" }
                    hasDrawn = true
                }
            }
        }
        if changes.count > shown { lines.append("… \(changes.count - shown) more (info --json lists them all)") }
        return lines
    }

    /// What `--loops` would repeat, or why it would repeat nothing.
    private func loopLines(_ summary: SongSummary) -> [String] {
        if let loop = summary.loop {
            let passes = loop.markedPasses.map { $0 == 0 ? ", marked for ever" : ", \($0) pass\($0 == 1 ? "" : "es") marked" } ?? ""
            return ["\(formatDuration(loop.startSeconds)) to \(formatDuration(loop.endSeconds)) (\(loop.marking)\(passes))"]
        }
        guard let problem = summary.loopProblem, problem != SongLoop.noMarks else {
            return ["none (no loop marks in any convention)"]
        }
        return ["none: \(problem)"]
    }

    private func trackText(_ track: SongSummary.TrackSummary) -> String {
        var text = "\(track.number)"
        if let name = track.name, !name.isEmpty { text += " \"\(name)\"" }
        text += ": \(plural(track.noteCount, "note"))"
        if !track.channels.isEmpty {
            text +=
                track.channels.count == 1
                ? " on channel \(track.channels[0])" : " on channels \(track.channels.map(String.init).joined(separator: ", "))"
        }
        return text
    }

    private func channelText(_ channel: SongSummary.ChannelSummary) -> String {
        let instruments =
            channel.isPercussion
            ? ["Percussion"]
            : channel.programs.map { selection in
                let bank = selection.bankMSB == 0 && selection.bankLSB == 0 ? "" : " (bank \(selection.bankMSB):\(selection.bankLSB))"
                return "\(selection.instrument ?? "Program \(selection.program + 1)")\(bank)"
            }
        let label = "\(channel.channel)".padding(toLength: 3, withPad: " ", startingAt: 0)
        return "\(label)\(instruments.isEmpty ? "no program change" : instruments.joined(separator: ", ")): \(plural(channel.noteCount, "note"))"
    }

    private func lyricsPreview(_ lyrics: String) -> [String] {
        let lines = lyrics.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return lines.count > 4 ? Array(lines.prefix(4)) + ["… (\(lines.count - 4) more lines; --json prints them all)"] : lines
    }
}

public func formatDuration(_ seconds: Double) -> String {
    let tenths = Int((seconds * 10).rounded())
    let minutes = tenths / 600
    let rest = tenths % 600
    let secondsText = String(rest / 10).count == 1 ? "0\(rest / 10)" : "\(rest / 10)"
    if minutes >= 60 { return "\(minutes / 60):\(String(format: "%02d", minutes % 60)):\(secondsText).\(rest % 10)" }
    return "\(minutes):\(secondsText).\(rest % 10)"
}

/// Bytes in KB (1,024) up to 1,000 of them, then in MB to a tenth.
private func byteSize(_ count: Int) -> String {
    let kilobytes = Double(count) / 1024
    if kilobytes < 1000 { return "\(grouped(max(1, Int(kilobytes.rounded())))) KB" }
    return String(format: "%.1f MB", kilobytes / 1024)
}

private func bpm(_ value: Double) -> String {
    abs(value - value.rounded()) < 0.05 ? String(Int(value.rounded())) : String(format: "%.1f", value)
}

private func plural(_ count: Int, _ noun: String) -> String {
    "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
}

private func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return text
}
