import SMF

extension RenderResult {
    /// What a user hears about a rendered song: what the lenient reader got past in its file (a
    /// track cut off, a wrong track count), presets played by others, and loop marks that make no loop.
    public func warnings(reading read: SMFReader.Output) -> [String] {
        let omitted = read.omittedWarningCount > 0 ? ["\(read.omittedWarningCount) more warnings not shown"] : []
        return read.warnings.map(\.description) + omitted + (songBankProblem.map { [$0.description] } ?? [])
            + substitutions.map(\.description) + (loopProblem.map { [$0] } ?? [])
    }
}
