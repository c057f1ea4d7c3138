! A small Fortran-ABI library, as BLAS and LAPACK are: procedures named
! with a trailing '_', CHARACTER arguments with hidden lengths.
subroutine fscale(jobz, n, x)
  character, intent(in) :: jobz
  integer, intent(in) :: n
  double precision, intent(inout) :: x(n)
  if (jobz == 'S') then
    x = 2 * x
  else
    x = -x
  end if
end subroutine

! Exported with no C prototype in any header.
subroutine fnoproto(n)
  integer, intent(inout) :: n
  n = n + 1
end subroutine

! The library's C interface.
function fdemo_version() bind(C, name="fdemo_version")
  use iso_c_binding
  integer(c_int) :: fdemo_version
  fdemo_version = 3
end function
