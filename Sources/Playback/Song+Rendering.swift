import SMF

extension Song {
    /// The longest song a render takes, as written (the loops asked for come on top): a day. A
    /// longer one is a damaged file, most likely (a delta time of hours read from stray bytes): a
    /// 44-byte file that lasted 156,000 hours rendered silence until the disk was full.
    public static let longestRendered: Double = 24 * 3600

    /// The song of `file`, for a render; refused when it lasts longer than ``longestRendered``.
    /// `name` names it in the error.
    public init(rendering file: MIDIFile, name: String) throws(RenderError) {
        self.init(file: file)
        guard !isTooLongToRender else { throw .tooLong(song: name, seconds: duration) }
    }

    /// Whether it lasts longer than ``longestRendered`` as written.
    public var isTooLongToRender: Bool { duration > Self.longestRendered }
}
