/// The known name a mistyped one most likely meant, so an error can say "did you mean ...?"
/// where the mistake is made (a config key, a placement id).
///
/// A near miss is within an edit distance that grows with the length of the shorter name: one
/// edit up to five characters, two up to eleven, three beyond. An edit is an insertion, a deletion, a
/// substitution or the swap of two neighbours; letters are compared without case, so
/// `profileId` is one edit from `profile_id`. Short names need a close match so that a new key
/// a newer host sends (`shade`) is not taken for a typo of an old one (`store`).
///
/// Public (not `package`) for the server, a package of its own: its device routes name the
/// placement a mistyped id meant exactly as the library does offline, by this one rule.
public enum NearestName {
    /// The candidate nearest to `name` within the allowed distance (ties: the first in sorted
    /// order, so the answer does not depend on the candidates' order); nil when none is near,
    /// or when `name` is itself a candidate.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let wanted = folded(name)
        var best: (distance: Int, name: String)?
        for candidate in candidates {
            if candidate == name { return nil }
            let limit = allowedDistance(min(wanted.count, candidate.count))
            let distance = editDistance(wanted, folded(candidate), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
            best = (distance, candidate)
        }
        return best?.name
    }

    /// How many edits a name of `length` characters may be away and still count as a near miss.
    static func allowedDistance(_ length: Int) -> Int {
        switch length {
        case ..<6: return 1
        case ..<12: return 2
        default: return 3
        }
    }

    private static func folded(_ name: String) -> [Unicode.Scalar] {
        name.unicodeScalars.map { scalar in
            // ASCII letters without case; anything else as written.
            (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
        }
    }

    /// The optimal string alignment distance (Damerau–Levenshtein without repeated edits of one
    /// substring), or a value above `limit` as soon as it is certain to exceed it.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousRow = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        var rowBeforePrevious = row
        for i in 1...a.count {
            rowBeforePrevious = previousRow
            previousRow = row
            row = [Int](repeating: 0, count: b.count + 1)
            row[0] = i
            var smallest = row[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, rowBeforePrevious[j - 2] + 1)
                }
                row[j] = value
                smallest = min(smallest, value)
            }
            if smallest > limit { return limit + 1 }
        }
        return row[b.count]
    }
}
