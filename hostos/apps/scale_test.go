package apps

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestScaled: the defaults divided by 8. Apache-F and ImgServer-F go from 200 to 25
// directories (Apache-F's 200 × 5,119,486 B ≈ 976 MiB becomes 25 × 5,119,486 B =
// 127,987,150 B ≈ 122 MiB); the uploads keep theirs (they have no data set). The tables go
// from 2 GiB to 256 MiB (16,384 pages of 16 KiB), DB-U's redo log from 96 to 12 MiB,
// Ungzip's archive from 1 GiB to 128 MiB. Loads and rates are untouched. The floors: a
// division by 1<<40 leaves one directory, one 16 KiB page, one 512 B log write, one byte.
func TestScaled(t *testing.T) {
	d := DefaultSpec()
	s := d.Scaled(8)
	require.NoError(t, s.Validate())
	require.Equal(t, 25, s.ApacheF.Dirs)
	require.Equal(t, 25, s.ImgServerF.Dirs)
	require.Equal(t, d.ApacheU.Dirs, s.ApacheU.Dirs)
	require.Equal(t, d.ImgServerU.Dirs, s.ImgServerU.Dirs)
	require.EqualValues(t, 256*MiB, s.DBS.TableSize)
	require.EqualValues(t, 256*MiB, s.DBU.TableSize)
	require.EqualValues(t, 12*MiB, s.DBU.LogFileSize)
	require.Zero(t, s.DBS.LogFileSize, "DB-S has no redo log")
	require.EqualValues(t, 128*MiB, s.Ungzip.FileSize)
	require.Equal(t, d.ApacheF.Client, s.ApacheF.Client)
	require.Equal(t, d.Ungzip.OutputRate, s.Ungzip.OutputRate)
	var set int64
	for c := range s.ApacheF.Classes {
		for i := range s.ApacheF.FilesPerClass {
			set += s.ApacheF.classSize(c, i)
		}
	}
	require.EqualValues(t, 127_987_150, set*int64(s.ApacheF.Dirs))

	tiny := d.Scaled(1 << 40)
	require.NoError(t, tiny.Validate())
	require.Equal(t, 1, tiny.ApacheF.Dirs)
	require.EqualValues(t, 16*KiB, tiny.DBS.TableSize)
	require.EqualValues(t, 512, tiny.DBU.LogFileSize)
	require.EqualValues(t, 1, tiny.Ungzip.FileSize)
	require.Equal(t, d, d.Scaled(1))
}
