// Package route holds RocketMQ's message-queue model as the Java client sees it: the
// MessageQueue identity, its Java text form and the Java sort orders of queues and client ids
// (specification §1.1, §6.5).
package route
