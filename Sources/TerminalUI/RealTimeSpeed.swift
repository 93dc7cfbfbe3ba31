/// How fast audio was made against its own length, as the summaries of `render` and
/// `index --loudness` say it: "73× real time", or "0.4× real time" for work slower than the music,
/// which a whole number would call 0×.
public enum RealTimeSpeed {
    public static func text(audioSeconds: Double, elapsedSeconds: Double) -> String {
        let ratio = audioSeconds / elapsedSeconds
        let number = ratio < 9.95 ? (ratio * 10).rounded() / 10 : ratio.rounded()
        let shown = number == number.rounded() ? String(Int(number)) : String(number)
        return "\(shown)× real time"
    }
}
