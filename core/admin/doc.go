// Package admin reads what operators paste from RocketMQ's admin tools — mqadmin's
// topicRoute, consumerConnection, consumerProgress, consumerStatus, topicStatus and
// clusterList, the remoting wire JSON, the Dashboard's REST JSON and its page tables as copied
// (tables.go), and Go client log lines —
// rebuilds the consumer group as far as the pastes tell it, computes the allocation each member
// computes (core/allocate, sorted as RebalanceImpl sorts, one entry per connection as the broker
// answers) and names what is wrong, with the input line behind every finding.
//
// Formats are recognised from their content, never from file names, and read leniently: shell
// prompts, JVM and log4j warnings, a user's marks, collapsed or doubled whitespace and a paste
// cut mid-line are skipped or used as far as they go, and every skip is reported with its line.
// The formats per version are those of the reference "admin-output-formats" (cited below as
// formats §N); client behaviour follows the specification (spec §N).
//
// The clients' own logs and the broker's (logs.go, the reference "client-logs") are read as
// a rebalance history (history.go): each member's rounds, who held each queue when, and the
// findings only that history shows.
//
// Reading is bounded: an input above MaxInputBytes (a log: MaxLogBytes) is refused, JSON deeper than MaxJSONDepth
// or with more than MaxJSONValues values is cut with an error, and every pass is linear in the
// input.
package admin
