// Package nvme holds the NVMe protocol's data that both ends of the link and the firmware
// speak: status codes (Status, including the Zoned Namespace codes), command opcodes
// (Opcode), FastDrain's write hint (Hint), the SMART / Health log page (HealthInfo), zone
// states, actions and the Report Zones data (ZoneState, ZoneDescriptor), Flexible Data
// Placement's configuration, events, log page report and Reclaim Unit Handle Status (FDP,
// FDPEvent, FDPInfo, RUHStatus), and the namespaces' configuration, types and reports
// (Namespace, ZoneSpec, NSType, NamespaceInfo). It holds no model and no timing and imports
// only the standard library, internal/enum (closed sets' names) and package sim (an event's
// time, a size), so the firmware can use the protocol's names without importing the controller
// model (nvmectrl), which keeps its own names for these as aliases.
//
// Sources: NVMe Base Specification 2.1/2.2 (status codes, Get Log Page), NVM Command Set
// Specification 1.0/1.1 (I/O opcodes), Zoned Namespace Command Set Specification 1.1 (zones), TP4146 (FDP), as
// cross-checked with SPDK's nvme_spec.h and Linux's include/linux/nvme.h.
package nvme
