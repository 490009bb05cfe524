public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The moon's phase at an instant, computed (no service): the elongation of the moon from
/// the sun, from low-precision series for both longitudes (Meeus, "Astronomical Algorithms",
/// ch. 25 and 47, main terms only: about a degree, so a phase's time to within two hours).
public struct MoonPhase: Sendable, Hashable {
    /// How far the moon is round from new, 0…1 (0.5: full).
    public let age: Double
    /// The share of the disc that is lit, 0…1.
    public let illumination: Double

    /// The phase at `date`.
    public init(at date: Date) {
        let d: Double = date.timeIntervalSince1970 / 86_400 + 2_440_587.5 - 2_451_545.0
        // The sun's mean anomaly and apparent longitude, degrees.
        let g: Double = Self.radians(357.529 + 0.98560028 * d)
        let sunMean: Double = 280.459 + 0.98564736 * d
        let sun: Double = sunMean + 1.915 * sin(g) + 0.020 * sin(2 * g)
        // The moon's mean longitude, mean anomaly, argument of latitude and elongation.
        let l: Double = 218.316 + 13.176396 * d
        let m: Double = Self.radians(134.963 + 13.064993 * d)
        let f: Double = Self.radians(93.272 + 13.229350 * d)
        let e: Double = Self.radians(297.850 + 12.190749 * d)
        var moon: Double = l + 6.289 * sin(m)
        moon += 1.274 * sin(2 * e - m) + 0.658 * sin(2 * e)
        moon += 0.214 * sin(2 * m) - 0.186 * sin(g) - 0.114 * sin(2 * f)
        let turn: Double = (moon - sun).truncatingRemainder(dividingBy: 360)
        let elongation: Double = (turn + 360).truncatingRemainder(dividingBy: 360)
        age = elongation / 360
        illumination = (1 - cos(Self.radians(elongation))) / 2
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    /// One of the eight phases, each an eighth of the cycle around its moment.
    public var name: String {
        Self.names[Int((age * 8).rounded()) % 8]
    }

    /// The phase's symbol (northern hemisphere's view).
    public var symbol: String {
        Self.symbols[Int((age * 8).rounded()) % 8]
    }

    static let names = ["New moon", "Waxing crescent", "First quarter", "Waxing gibbous",
                        "Full moon", "Waning gibbous", "Last quarter", "Waning crescent"]
    static let symbols = ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"]
}
