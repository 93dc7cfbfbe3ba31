import Files
import SMF
import SystemPackage

extension SoundBankSummary {
    /// What a bank file of its own holds (a sidecar bank, heard at its own bank numbers), read
    /// from its headers. Its kind is what its RIFF form says (`sfbk` and its version, or `DLS `);
    /// a bank damaged so that its headers cannot be read is taken for what its name says.
    public init(file: ReadableFile) {
        let start = (try? file.read(upTo: 12, at: 0)) ?? []
        let formType = start.count == 12 && start.starts(with: "RIFF".utf8) ? Array(start[8..<12]) : nil
        let name = file.path.bytes.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
        let named = BankFileName(name)?.fileExtension
        let isDLS = formType.map { $0.elementsEqual("DLS ".utf8) } ?? (named == .dls)
        let bank = EmbeddedSoundBank(format: isDLS ? .downloadableSounds : .soundFont, bytes: 0..<Int(clamping: file.size), bankOffset: 0)
        self.init(bank: bank, in: file)
        if presetCount == nil, let named {
            switch named {
            case .sf2: kind = .sf2
            case .sf3: kind = .sf3
            case .dls: kind = .dls
            }
        }
    }
}
