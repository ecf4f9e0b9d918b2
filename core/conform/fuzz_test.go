package conform

import "testing"

// FuzzRun: whatever a vector file holds, Run answers with a result or an error — never a
// panic, and in bounded time (the seeds are small files of every kind and client).
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		`{"client":"rocketmq-client-go/v2@v2.1.2","cases":[{"id":"a","call":"doBalance","strategy":"MACHINE_ROOM","params":{"consumeridcs":["r","r"]},"currentCID":"c1","brokerAnswer":"SUCCESS","cidAll":["c1"],"mqAll":[{"topic":"T","brokerName":"r@b","queueId":0}],"sortedMqAll":[],"sortedCidAll":[],"result":null}]}`,
		`{"client":"rocketmq-client-go/v2@v2.1.2","cases":[{"id":"s","selector":"ROUND_ROBIN","topic":"T","queues":[],"startStored":4294967295,"steps":[{"op":"lastBroker","lastBrokerName":"b","storedBefore":null,"result":null},{"op":"attempt","mode":"ONEWAY","attempt":0,"outcome":"REMOTING_EXCEPTION","result":null}]}]}`,
		`{"client":"rocketmq-client-go/v2@v2.1.2","cases":[{"id":"p","path":"firstSend","topic":"T","route":{"queueDatas":[{"brokerName":"b","writeQueueNums":2,"readQueueNums":2,"perm":6}],"brokerDatas":[{"brokerName":"b","brokerAddrs":{"0":"x"}}]},"publishList":[]}]}`,
		`{"client":"rocketmq-java@4.9.8","cases":[{"id":"j","queues":[],"route":null,"startStored":null,"initDraw":-2147483648,"worstStartStored":null,"sendLatencyFaultEnable":true,"steps":[{"op":"newMessage","atMs":0},{"op":"attempt","atMs":5000,"attempt":0,"lastBrokerName":null,"storedBefore":null,"result":null,"outcome":"CALL_TIMEOUT"}]}]}`,
		`{"client":"rocketmq-java@4.9.8","latencyMax":[1],"sweep":[{"latency":1,"notAvailableDuration":0}],"sequences":[{"id":"f","sendLatencyFaultEnable":true,"notAvailableDuration":[],"steps":[{"atMs":0,"op":"update","brokerName":"b","currentLatency":9,"isolation":true},{"atMs":0,"op":"pickOneAtLeast","result":null},{"atMs":0,"op":"remove","brokerName":"b"}]}]}`,
		`{"cases":[{"id":"x","strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":3},"currentCID":"c","cidAll":["c","c"],"mqAll":[{"topic":null,"brokerName":null,"queueId":-1}],"result":[]}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		RunWith(data, goRandom)
	})
}
