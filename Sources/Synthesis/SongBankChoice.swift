/// The bank a song will be heard with, and the rule that chose it (``SongBankLookup``).
public struct SongBankChoice: Hashable, Sendable {
    public var bank: SongSoundBank
    public var reason: SongBankReason

    public init(bank: SongSoundBank, reason: SongBankReason) {
        self.bank = bank
        self.reason = reason
    }
}
