package apps

// Scaled returns s with every application's data set divided by div (≥ 1), for a platform
// scaled down as a whole (platforms/presets/fastdrain-tlc-8x.yaml): the fetch servers'
// directories, the databases' table and redo log, Ungzip's archive. Loads (clients, think
// times), request sizes and CPU rates are not data and stay as they are. Each size stays a
// valid value: at least one directory, a table of at least one database page and a whole
// number of them, a redo log of at least one log_write, an archive of at least one byte.
func (s Spec) Scaled(div int) Spec {
	if div <= 1 {
		return s
	}
	for _, sv := range []*ServerSpec{&s.ApacheF, &s.ApacheU, &s.ImgServerF, &s.ImgServerU} {
		if sv.Op == OpFetch {
			sv.Dirs = max(1, sv.Dirs/div)
		}
	}
	for _, db := range []*DBSpec{&s.DBS, &s.DBU} {
		if db.PageSize > 0 {
			db.TableSize = max(db.PageSize, db.TableSize/Size(div)/db.PageSize*db.PageSize)
		}
		if db.Op == OpUpdate {
			db.LogFileSize = max(db.LogWrite, db.LogFileSize/Size(div))
		}
	}
	s.Ungzip.FileSize = max(1, s.Ungzip.FileSize/Size(div))
	return s
}
