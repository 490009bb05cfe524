import AlmanacModels
import TestHarness
import Testing

/// `KeyedCache`, the table services keep what they learnt in: its bound lets go of the entry
/// added or replaced longest ago, `update` reads and writes in one step.
@Suite(.onTestThreads, .timeLimit(.hang)) struct KeyedCacheTests {
    @Test func pastItsCapacityTheEntryAddedOrReplacedLongestAgoGoes() {
        let cache = KeyedCache<String, Int>(capacity: 2)
        cache["a"] = 1
        cache["b"] = 2
        cache["a"] = 10  // replaced: now the newest
        cache["c"] = 3
        #expect(cache.keys == ["a", "c"] && cache["a"] == 10 && cache["b"] == nil)
        cache.update("a") { $0 = ($0 ?? 0) + 1 }  // changed in place: keeps its place
        cache["d"] = 4
        #expect(cache.keys == ["c", "d"])
        cache["c"] = nil
        #expect(cache.count == 1 && cache["d"] == 4)
    }

    @Test func removeAllLetsGoOfWhatItPicks() {
        let cache = KeyedCache<Int, Int>()
        for number in 0..<10 { cache[number] = number * number }
        cache.removeAll { key, _ in key % 2 == 1 }
        #expect(cache.keys == [0, 2, 4, 6, 8] && cache[4] == 16)
    }

    @Test func anUpdateIsOneStepUnderManyThreads() async {
        let cache = KeyedCache<String, Int>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { cache.update("count") { $0 = ($0 ?? 0) + 1 } } }
            }
        }
        #expect(cache["count"] == 8_000)
    }
}
