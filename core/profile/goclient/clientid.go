package goclient

import "strconv"

// DefaultInstanceName is the instance name nobody set.
const DefaultInstanceName = "DEFAULT"

// ClientID is rmqClient.ClientID (spec §9.1.2): "<ip>@<instance>", where the default
// instance name is replaced by the decimal process id, then "@<unit>" when a unit name is
// set. No "#nanoTime": a restarted process with the same pid (PID 1 in a container) has the
// same id, and two containers sharing the host's IP and PID 1 share it too. ip is "" when
// the host has no usable IPv4 address (the id is then "@<pid>").
func ClientID(ip, instanceName, unitName string, pid int) string {
	if instanceName == "" || instanceName == DefaultInstanceName {
		instanceName = strconv.Itoa(pid)
	}
	id := ip + "@" + instanceName
	if unitName != "" {
		id += "@" + unitName
	}
	return id
}
