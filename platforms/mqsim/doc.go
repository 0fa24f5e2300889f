// Package mqsim imports MQSim's SSD configuration (the ssdconfig.xml of CMU-SAFARI/MQSim:
// an Execution_Parameter_Set holding a Host_Parameter_Set and a Device_Parameter_Set with
// its Flash_Parameter_Set) into a fastdrain configuration layer: a YAML file of the
// configuration keys that have an equivalent, each with a comment naming the MQSim element
// it came from, to be applied on a preset with --config.
//
// Every element is accounted for: it is mapped (with its conversion: MQSim times are in ns,
// sizes in bytes, rates in MT/s, GC thresholds as fractions of a plane), mapped to the
// nearest equivalent with a note that says so, or listed as having no equivalent, with the
// reason. Nothing is dropped silently; an element this importer does not know is listed too.
// Malformed input (not XML, a number that is not one, a value outside the element's domain)
// is an error naming the element and its line.
package mqsim
