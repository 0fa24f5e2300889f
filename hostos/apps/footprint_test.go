package apps

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDataSetsByHand(t *testing.T) {
	s := DefaultSpec()
	// A fetch server of 3 directories, one class of 2 files from 1 KiB to 9 KiB: the files
	// are 1 KiB and 9 KiB (Min + i·(Max−Min)/(2−1)), taking 1 and 3 pages of 4 KiB, so a
	// directory takes 4 pages = 16 KiB and the data set 48 KiB.
	s.ApacheF.Op, s.ApacheF.Dirs, s.ApacheF.FilesPerClass = OpFetch, 3, 2
	s.ApacheF.Classes = []SizeClass{{Percent: 100, Min: 1 * KiB, Max: 9 * KiB}}
	// An update database: a 1 MiB table and a 10,000-byte redo log (3 pages): 1 MiB + 12 KiB.
	s.DBU.Op, s.DBU.TableSize, s.DBU.LogFileSize = OpUpdate, 1*MiB, 10000
	// Ungzip's input is file_size × compressed_percent / 100 = 1 MiB × 25 % = 256 KiB.
	s.Ungzip.FileSize, s.Ungzip.CompressedPercent = 1*MiB, 25
	sc := Scenario{Name: "x", Apps: []string{ApacheF, DBU, Ungzip, ApacheU}}
	s.ApacheU.Op = OpUpload // starts empty
	require.Equal(t, []DataSet{
		{App: ApacheF, Field: "apps.apache_f", Bytes: 48 * 1024},
		{App: DBU, Field: "apps.db_u", Bytes: 1<<20 + 12*1024},
		{App: Ungzip, Field: "apps.ungzip", Bytes: 256 * 1024},
		{App: ApacheU, Field: "apps.apache_u", Bytes: 0},
	}, s.DataSets(sc))

	total := int64(48*1024 + 1<<20 + 12*1024 + 256*1024)
	require.NoError(t, s.CheckFits(sc, total), "exactly full fits")
	err := s.CheckFits(sc, total-4096)
	require.ErrorContains(t, err, "scenario x: its data sets need 1.3 MiB at set-up but the device's file system holds 1.3 MiB")
	require.ErrorContains(t, err, "db-u 1.0 MiB (apps.db_u)")
	require.NotContains(t, err.Error(), "apache-u", "an empty data set is not listed")
}
