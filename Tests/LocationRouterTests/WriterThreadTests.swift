import Foundation
import Synchronization
import Testing
@testable import LocationRouter

/// Blocking output calls run on a thread of their own, one at a time in the order handed over, and the caller
/// resumes with the result once the work has returned.
@Suite struct WriterThreadTests {
    @Test func workRunsOneAtATimeInOrderAndReturnsItsResult() async {
        let writer = WriterThread(name: "lr-test-writer")
        let order = Mutex<[Int]>([])
        for index in 0..<20 {
            let result = await writer.perform { () -> Int in
                order.withLock { $0.append(index) }
                return index * 3
            }
            #expect(result == index * 3)
        }
        #expect(order.withLock { $0 } == Array(0..<20))
    }

    @Test func concurrentCallersEachGetTheirOwnResult() async {
        let writer = WriterThread(name: "lr-test-writer")
        let results = await withTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<50 {
                group.addTask { (index, await writer.perform { index * index }) }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == 50)
        #expect(results.allSatisfy { $0.value == $0.key * $0.key })
    }

    @Test func workHandedOverAfterFinishStillRunsAndReturns() async {
        let writer = WriterThread(name: "lr-test-writer")
        #expect(await writer.perform { 1 } == 1)
        writer.finish()
        #expect(await writer.perform { 2 } == 2)
    }
}
